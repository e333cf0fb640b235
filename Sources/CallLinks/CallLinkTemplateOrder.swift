extension CallLinkTemplate {
    /// True when this template matches every link `later` matches, so `later` can never decide when it is
    /// listed after this one: the same path shape, and no query item this one requires that `later` does
    /// not require too.
    ///
    /// The config (LH115) and `CallLinkParser` refuse such a list with the same check.
    public func answersFirst(over later: CallLinkTemplate) -> Bool {
        guard segments == later.segments else { return false }
        return requiredQueryNames.isSubset(of: later.requiredQueryNames)
    }

    /// The names of the query items a link must carry: the ones bound to `{callId}`.
    var requiredQueryNames: Set<String> {
        Set(queryItems.filter { $0.binding == .callID }.map(\.name))
    }
}
