// linkhost call page. The HTML is the same bytes for every device, so any cache in front can share it;
// this script runs in the visitor's browser and picks what works there. Without it the page still
// works: both stores, web join, the Smart App Banner and, on wide screens, the QR code.
//
// Small pure functions decide (platform, in-app browser, language, which action leads); `main` reads the
// page and applies the decision. Node loads the same file for the unit tests (Tests/JavaScript/).
(function (global) {
  'use strict';

  // In-app browsers by the token each app adds to its webview's User-Agent, checked in this order (Messenger
  // before Facebook: its User-Agent carries FBAN/FBAV too). Sources: the User-Agent strings these apps send,
  // as collected by the in-app browser test page inappdebugger.com (github.com/shalanah/inapp-debugger, e.g.
  // issue 22 for Instagram's) and by the User-Agent parsers that recognise them (github.com/fnando/browser
  // pull request 355 for Instagram); the Google app's GSA/ token by Google's own iOS app; WhatsApp's
  // "[WA4A/2.25…;]" (Android) and "[WAiOS/2.25…]" (iOS) as the same author's detector records them
  // (github.com/shalanah/inapp-spy, pull request 59). Its link-preview fetcher ("WhatsApp/2.23… A") is a bot.
  var WEBVIEWS = [
    ['messenger', /\bFBAN\/Messenger|\bFB_IAB\/MESSENGER|\bFB_IAB\/Orca-Android|\bMessengerLite/],
    ['instagram', /\bInstagram\b/],
    ['facebook', /\bFBAN\/|\bFBAV\/|\bFB_IAB\//],
    ['linkedin', /\bLinkedInApp\b/],
    ['tiktok', /\bmusical_ly_|\bBytedanceWebview\b|\bTikTok\b|\btrill_\d/],
    ['snapchat', /\bSnapchat\b/],
    ['line', /\bLine\/\d/],
    ['twitter', /\bTwitter(?:Android| for iPhone)\b|\bTwitterAndroid\b/],
    ['google', /\bGSA\/\d/],
    ['whatsapp', /\bWA4A\/|\bWAiOS\//]
  ];

  // Crawlers and link-preview fetchers that may run the page's script, by the token each one's owner documents
  // for its User-Agent: Googlebot (developers.google.com/search/docs/crawling-indexing/overview-google-crawlers),
  // bingbot (bing.com/webmasters/help/which-crawlers-does-bing-use), Applebot (support.apple.com/119829),
  // facebookexternalhit (developers.facebook.com/docs/sharing/webmasters/web-crawlers), Slackbot-LinkExpanding
  // (api.slack.com/robots), Twitterbot (developer.x.com, cards troubleshooting), LinkedInBot, Discordbot,
  // TelegramBot and WhatsApp's preview fetcher; and Chrome without a window (HeadlessChrome), which preview
  // services drive. Whole tokens only: "bot" alone would take CUBOT phones for crawlers.
  var BOTS = /Googlebot|bingbot|Applebot|facebookexternalhit|Slackbot|Twitterbot|LinkedInBot|Discordbot|TelegramBot|WhatsApp\/|HeadlessChrome/;

  // What a beacon may report (the server accepts these words only; Beacon.swift).
  var BEACON_EVENTS = ['view', 'open', 'store', 'web', 'copy', 'leave'];
  var BEACON_PLATFORMS = ['ios', 'android', 'desktop', 'in_app', 'bot', 'other'];

  /** 'android', 'ios', 'mobile' or 'desktop' from the User-Agent and the number of touch points. */
  function platformOf(agent, touchPoints) {
    // iPadOS Safari sends a Mac's User-Agent by default; only a touch screen tells the two apart.
    var iPad = /iPad/.test(agent) || (/Macintosh/.test(agent) && touchPoints > 1);
    if (/Android/.test(agent)) return 'android';
    if (/iPhone|iPod/.test(agent) || iPad) return 'ios';
    return /Mobi/.test(agent) ? 'mobile' : 'desktop';
  }

  /**
   * 'gecko' for Android browsers built on Mozilla's engine and android-components (Firefox, Focus and their
   * forks: "Gecko/133.0" where Chromium writes "like Gecko"), else 'chromium'. The two handle an intent: link
   * differently (docs/guest-journey.md, sources 5 and 7), so each gets the form its engine opens.
   */
  function engineOf(agent) {
    return /\bGecko\/\d/.test(agent) ? 'gecko' : 'chromium';
  }

  /**
   * The intent without its S.browser_fallback_url extra, for Firefox: its AppLinksInterceptor loads that
   * fallback instead of the app whenever "Open links in apps" is Never, even with the app installed, and
   * with the setting on and no app it opens the Play Store from the package alone, fallback or not. Without
   * the extra the package's app opens under every setting. (The extra's value is percent-encoded: no ';'.)
   */
  function withoutFallback(intent) {
    return String(intent || '').replace(/;S\.browser_fallback_url=[^;]*/, '');
  }

  /** The name of the in-app browser the User-Agent belongs to, or '' for a browser. */
  function webviewOf(agent) {
    for (var i = 0; i < WEBVIEWS.length; i++) if (WEBVIEWS[i][1].test(agent)) return WEBVIEWS[i][0];
    return '';
  }

  /** The coarse platform a beacon reports: a bot, else an in-app browser, else the device ('other' for other phones). */
  function beaconPlatform(platform, webview, agent) {
    if (BOTS.test(agent || '')) return 'bot';
    if (webview) return 'in_app';
    return platform === 'mobile' ? 'other' : platform;
  }

  /** The same-origin URL a beacon goes to, or '' for words the server would refuse. No call ID, nothing else. */
  function beaconURL(event, platform) {
    if (BEACON_EVENTS.indexOf(event) < 0 || BEACON_PLATFORMS.indexOf(platform) < 0) return '';
    return '/.linkhost/beacon?e=' + event + '&p=' + platform;
  }

  /** Reports one event with navigator.sendBeacon: no cookie, never waits, never retries, never throws. */
  function report(navigator, event, platform) {
    var url = beaconURL(event, platform);
    if (!url || !navigator || typeof navigator.sendBeacon !== 'function') return false;
    try { return navigator.sendBeacon(url) === true; } catch (error) { return false; }
  }

  /** The iOS major version in the User-Agent ("OS 17_4 like Mac OS X"), or 0. */
  function iOSVersionOf(agent) {
    var match = /\bOS (\d+)_\d+(?:_\d+)? like Mac OS X/.exec(agent);
    return match ? Number(match[1]) : 0;
  }

  // The server's choice, in the same order: same tag, a longer tag, a shorter one, the same language;
  // the default (listed first) when nothing fits.
  function chooseLanguage(ranges, tags) {
    var lower = tags.map(function (tag) { return tag.toLowerCase(); });
    for (var i = 0; i < ranges.length; i++) {
      var range = String(ranges[i]).toLowerCase();
      if (!range) continue;
      var found = lower.indexOf(range);
      for (var j = 0; found < 0 && j < lower.length; j++) if (lower[j].indexOf(range + '-') === 0) found = j;
      for (var shorter = range; found < 0 && shorter.lastIndexOf('-') > 0;) {
        shorter = shorter.slice(0, shorter.lastIndexOf('-'));
        found = lower.indexOf(shorter);
      }
      for (var k = 0; found < 0 && k < lower.length; k++) if (lower[k].split('-')[0] === range.split('-')[0]) found = k;
      if (found >= 0) return tags[found];
    }
    return tags[0];
  }

  /** The host name of an absolute URL (no port), lowercased, or ''. */
  function hostOf(url) {
    var match = /^[a-z][a-z0-9+.-]*:\/\/([^\/?#:]*)/i.exec(url || '');
    return match ? match[1].toLowerCase() : '';
  }

  /** An https URL as an Android intent without a package: the verified app, else the default browser. */
  function leaveWebviewIntent(canonical) {
    var match = /^(https?):\/\/(.+)$/.exec(canonical || '');
    return match ? 'intent://' + match[2] + '#Intent;scheme=' + match[1] + ';action=android.intent.action.VIEW;end' : '';
  }

  /**
   * What the page offers first. `page`: platform, webview, engine (engineOf), iOS version, the open button's candidates
   * (intent, scheme, appHostURL), whether a computer may be offered the scheme (desktopScheme: the config says a
   * desktop app declares it), the canonical URL, the page's own host name, whether web join exists and which
   * install links the page has (hasAppStore, hasPlayStore: false for an app in no store that names no page).
   * Returns the open button's href (or ''), whether it leads, which install link shows, whether the app is
   * known to be missing, whether to say the call is joined on another device (`elsewhere`), and the way out
   * of an in-app browser (its href and which hint). `lead` is 'open',
   * 'store', 'web', 'escape' or 'qr' (a computer with nothing else: scan the code with the phone).
   */
  function decide(page) {
    var result = { open: '', openLeads: false, lead: 'open', store: '', appMissing: false, elsewhere: false, escape: '', hint: '' };
    var onAppHost = page.appHostURL !== '' && hostOf(page.appHostURL) === page.host;
    if (page.platform === 'android') {
      result.store = page.hasPlayStore === false ? '' : 'play-store';
      result.open = page.engine === 'gecko' ? withoutFallback(page.intent) : page.intent;
      if (page.webview) {
        result.escape = leaveWebviewIntent(page.canonical);
        result.hint = 'android';
      }
    } else if (page.platform === 'ios') {
      result.store = page.hasAppStore === false ? '' : 'app-store';
      if (onAppHost) {
        // iOS served this host's page instead of opening the app: it is not installed.
        result.appMissing = true;
      } else if (page.appHostURL) {
        result.open = page.appHostURL;
      } else if (page.scheme) {
        // A scheme no app has registered makes Safari show an error: never the first thing offered.
        result.open = page.scheme;
        result.lead = 'store';
      }
      if (!result.open) result.lead = 'store';
      if (page.webview) {
        // Reported for iOS 17 and later (not documented by Apple); the hint says the manual way.
        result.escape = page.iOSVersion >= 17 ? 'x-safari-' + page.canonical : '';
        result.hint = 'ios';
      }
    } else if (page.platform === 'desktop') {
      // A computer answers a phone app's scheme with nothing (or an error): only when a desktop app declares it.
      result.open = page.desktopScheme ? page.scheme : '';
      result.lead = page.hasWeb ? 'web' : (result.open ? 'open' : 'qr');
    } else {
      result.open = page.scheme;
      result.lead = result.open ? 'open' : 'web';
    }
    // The way into the app from an in-app browser is the escape; an open button beside it would contradict
    // the text above it ("…may not open the app from here").
    if (page.webview && result.escape) {
      result.lead = 'escape';
      result.open = '';
    }
    result.lead = fallback(result, page);
    result.openLeads = result.lead === 'open' && result.open !== '';
    // A phone left with the QR code alone (no app to open, nothing to install, no web join) is not shown the
    // code (it is for computers): the page says where the call can be joined instead of ending at "isn't on
    // this phone yet".
    result.elsewhere = result.lead === 'qr' && page.platform !== 'desktop';
    return result;
  }

  /** The lead when the one chosen has nothing to show: web join, then the install link, the open button, the QR code. */
  function fallback(result, page) {
    var available = {
      open: result.open !== '', store: result.store !== '', web: !!page.hasWeb, escape: result.escape !== '', qr: true
    };
    if (available[result.lead]) return result.lead;
    var order = ['web', 'store', 'open', 'qr'];
    for (var i = 0; i < order.length; i++) if (available[order[i]]) return order[i];
    return 'qr';
  }

  /** Whether a store tap should first copy the call link: a phone without the app (deferred deep link). */
  function copiesBeforeStore(platform) {
    return platform === 'ios' || platform === 'android';
  }

  /** Copies `text` inside the user's tap: the async Clipboard API, else a selected field and execCommand. */
  function copy(document, navigator, text) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, function () { return fallbackCopy(document, text); });
    }
    return Promise.resolve(fallbackCopy(document, text));
  }

  function fallbackCopy(document, text) {
    var field = document.createElement('textarea');
    field.value = text;
    field.setAttribute('readonly', '');
    field.className = 'offscreen';
    document.body.appendChild(field);
    field.select();
    var copied = false;
    try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
    field.remove();
    return copied;
  }

  /** Reads the page, decides and applies: the one entry point in a browser. */
  function main(window) {
    var document = window.document;
    var navigator = window.navigator;
    var root = document.documentElement;

    // A cache that ignores Vary may hand out another visitor's language: ask for the browser's own once.
    var offered = (root.getAttribute('data-languages') || '').split(' ').filter(Boolean);
    if (offered.length > 1 && !/[?&]lang=/.test(window.location.search)) {
      var wanted = chooseLanguage(navigator.languages || [navigator.language || ''], offered);
      if (wanted.toLowerCase() !== root.lang.toLowerCase()) {
        var url = new window.URL(window.location.href);
        url.searchParams.set('lang', wanted);
        window.location.replace(url.href);
        return;
      }
    }

    var agent = navigator.userAgent || '';
    var byId = function (id) { return document.getElementById(id); };
    var open = byId('open-app');
    var canonicalLink = document.querySelector('link[rel="canonical"]');
    var canonical = canonicalLink ? canonicalLink.href : '';
    var platform = platformOf(agent, navigator.maxTouchPoints || 0);
    var webview = webviewOf(agent);
    root.setAttribute('data-platform', platform);
    if (webview) root.setAttribute('data-webview', webview);
    var data = function (name) { return (open && open.getAttribute(name)) || ''; };
    var decision = decide({
      platform: platform, webview: webview, engine: engineOf(agent), iOSVersion: iOSVersionOf(agent), canonical: canonical,
      intent: data('data-intent'), scheme: data('data-scheme'), appHostURL: data('data-app-host'),
      desktopScheme: data('data-desktop-scheme') === 'true',
      host: window.location.hostname.toLowerCase(), hasWeb: !!byId('web-join'),
      hasAppStore: !!byId('app-store'), hasPlayStore: !!byId('play-store')
    });
    apply(document, decision, platform);
    var coarse = beaconPlatform(platform, webview, agent);
    report(navigator, 'view', coarse);
    wireReports(window, coarse);
    wireStores(window, canonical, platform, coarse);
  }

  /** Reports each tap on the page's actions; the listener only reports, the tap does what it always did. */
  function wireReports(window, coarse) {
    var events = { 'open-app': 'open', 'web-join': 'web', 'leave-webview': 'leave', 'app-store': 'store', 'play-store': 'store' };
    Object.keys(events).forEach(function (id) {
      var element = window.document.getElementById(id);
      if (element) element.addEventListener('click', function () { report(window.navigator, events[id], coarse); });
    });
  }

  /** Shows, hides and orders the page's actions as `decision` says. */
  function apply(document, decision, platform) {
    var byId = function (id) { return document.getElementById(id); };
    var open = byId('open-app');
    var web = byId('web-join');
    if (open && decision.open) {
      open.href = decision.open;
      open.hidden = false;
      open.className = decision.openLeads ? 'button primary' : 'button secondary';
    }
    if (web) web.className = decision.lead === 'web' ? 'button primary' : 'button secondary';
    if (web && open && decision.lead === 'web') web.parentNode.insertBefore(web, open);
    if (platform === 'ios' || platform === 'android') {
      // A phone is shown its own platform's install link only, or none.
      var other = byId(platform === 'ios' ? 'play-store' : 'app-store');
      if (other) other.hidden = true;
      var store = byId(decision.store);
      if (store && decision.lead === 'store') store.className = 'button primary';
    }
    var stores = document.querySelector('.stores');
    var shown = ['app-store', 'play-store'].filter(function (id) { var link = byId(id); return link && !link.hidden; });
    // "Don't have the app yet? Install it…" with no install link under it would be a dead end.
    if (stores && shown.length === 0) stores.hidden = true;
    if (decision.lead === 'qr') {
      var qr = byId('qr');
      var actions = byId('actions');
      if (qr && actions) actions.parentNode.insertBefore(qr, actions);
    }
    byId('app-missing').hidden = !decision.appMissing;
    var elsewhere = byId('elsewhere');
    if (elsewhere) elsewhere.hidden = !decision.elsewhere;
    if (decision.hint) {
      byId('webview').hidden = false;
      byId('webview-hint-' + decision.hint).hidden = false;
      var leave = byId('leave-webview');
      if (decision.escape) leave.href = decision.escape; else leave.hidden = true;
    }
    if (platform === 'ios' && decision.lead === 'store') {
      // Leading with the store: its section moves up, right under the call's details.
      var actionsBelow = byId('actions');
      if (stores && actionsBelow) actionsBelow.parentNode.insertBefore(stores, actionsBelow);
    }
  }

  /** On a phone a store tap copies the canonical link first, says so, then goes to the store. */
  function wireStores(window, canonical, platform, coarse) {
    if (!copiesBeforeStore(platform) || !canonical) return;
    var document = window.document;
    var note = document.getElementById('link-copied');
    ['app-store', 'play-store'].forEach(function (id) {
      var store = document.getElementById(id);
      if (!store) return;
      store.addEventListener('click', function (event) {
        event.preventDefault();
        var target = store.href;
        copy(document, window.navigator, canonical).then(function (copied) {
          if (copied && note) note.hidden = false;
          if (copied) report(window.navigator, 'copy', coarse);
          // Long enough to read the line; the store opens either way.
          window.setTimeout(function () { window.location.assign(target); }, copied ? 1200 : 0);
        });
      });
    });
  }

  var exported = {
    WEBVIEWS: WEBVIEWS, platformOf: platformOf, webviewOf: webviewOf, engineOf: engineOf, withoutFallback: withoutFallback, iOSVersionOf: iOSVersionOf,
    chooseLanguage: chooseLanguage, hostOf: hostOf, leaveWebviewIntent: leaveWebviewIntent, decide: decide,
    copiesBeforeStore: copiesBeforeStore, BOTS: BOTS, beaconPlatform: beaconPlatform, beaconURL: beaconURL, report: report, main: main
  };
  if (typeof module === 'object' && module.exports) module.exports = exported;
  else if (global && global.document) main(global);
})(typeof window === 'undefined' ? null : window);
