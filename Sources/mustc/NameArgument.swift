import ArgumentParser
import MustCore

/// Checks a member name or movie title, turning problems into exit-64 validation errors.
enum NameArgument {
    static func validated(_ raw: String, field: String) throws -> String {
        do {
            return try NameValidation.validate(raw, field: field)
        } catch NameProblem.empty(let field) {
            throw ValidationError(NameProblem.empty(field: field).description)
        } catch {
            let shown = raw.count > 40 ? String(raw.prefix(40)) + "…" : raw
            throw ValidationError("\(error.description) (got \"\(TerminalText.cell(shown))\")")
        }
    }
}
