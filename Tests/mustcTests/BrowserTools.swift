import Foundation
import TMDBStub

/// What the browser tests (Tests/browser/*.py) need besides the binary: Debian's Chromium headless shell and
/// chromedriver, and a Python with the packages of contrib/packages/python.txt. `contrib/test.sh` installs them all;
/// a test run without them fails each browser test with one line naming what is missing, not a traceback.
enum BrowserTools {
    /// The venv contrib/test.sh makes (MUSTC_TEST_PYTHON), else the python3 on PATH.
    static let python = ProcessInfo.processInfo.environment["MUSTC_TEST_PYTHON"] ?? "python3"

    /// The programs the scripts start, with their Debian packages.
    static let programs = [
        "/usr/lib/chromium/chromium-headless-shell": "chromium-headless-shell",
        "/usr/bin/chromedriver": "chromium-driver",
    ]

    /// The modules of contrib/packages/python.txt's packages.
    static let modules = ["selenium", "axe_playwright_python"]

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// Checked once per test run.
    static let missing = missing(python: python, modules: modules, programs: programs)

    /// Throws the one line when something is missing.
    static func require() throws {
        if let missing { throw Missing(description: missing) }
    }

    /// Nil when everything is there; else one line naming what to install.
    static func missing(python: String, modules: [String], programs: [String: String]) -> String? {
        var lacking: [String] = []
        let absent = programs.filter { !FileManager.default.isExecutableFile(atPath: $0.key) }.values.sorted()
        if !absent.isEmpty { lacking.append("Debian's \(absent.joined(separator: " and ")) (apt-get install)") }
        if let python = missingPython(python, modules: modules) { lacking.append(python) }
        guard !lacking.isEmpty else { return nil }
        return "The browser tests need \(lacking.joined(separator: " and ")): contrib/test.sh installs them and "
            + "sets MUSTC_TEST_PYTHON."
    }

    /// Nil when `python` runs and imports every module; else what to install.
    static func missingPython(_ python: String, modules: [String]) -> String? {
        let check =
            "import importlib.util, sys\n"
            + "print(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-c", check] + modules
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let noPython = "Python 3 (\(python) does not run; apt-get install python3 python3-venv)"
        guard (try? ChildLaunch.run(process)) != nil else { return noPython }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return noPython }
        let names = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard !names.isEmpty else { return nil }
        return "the Python modules \(names.joined(separator: ", ")) for \(python) "
            + "(pip install -r contrib/packages/python.txt, into a venv)"
    }
}
