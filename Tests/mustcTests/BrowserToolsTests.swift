import Foundation
import Testing

/// Without Chromium or Selenium a browser test fails with one line naming what to install (BrowserTools).
struct BrowserToolsTests {
    @Test func aMissingProgramOrModuleIsNamedOnOneLine() throws {
        let line = try #require(
            BrowserTools.missing(
                python: BrowserTools.python, modules: ["json", "mustc_no_such_module"],
                programs: ["/bin/sh": "dash", "/nonexistent/chromedriver": "chromium-driver"]))
        #expect(!line.contains("\n"), "\(line)")
        #expect(line.contains("Debian's chromium-driver (apt-get install)"), "\(line)")
        #expect(!line.contains("dash"), "\(line)")
        #expect(line.contains("the Python modules mustc_no_such_module for"), "\(line)")
        #expect(!line.contains("json"), "\(line)")
        #expect(line.contains("contrib/test.sh"), "\(line)")
    }

    @Test func aPythonThatDoesNotRunIsNamed() throws {
        let line = try #require(
            BrowserTools.missing(python: "/nonexistent/python3", modules: ["json"], programs: [:]))
        #expect(line.contains("Python 3 (/nonexistent/python3 does not run; apt-get install python3"), "\(line)")
        #expect(!line.contains("\n"))
    }

    @Test func everythingThereIsNothingMissing() {
        #expect(
            BrowserTools.missing(python: BrowserTools.python, modules: ["json"], programs: ["/bin/sh": "dash"]) == nil)
    }
}
