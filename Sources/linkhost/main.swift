import LinkHostCore
import LinkHostServer

#if canImport(Glibc)
import Glibc
#endif

exit(CommandLineTool.main(CommandLine.arguments, environment: ProcessEnvironment.current))
