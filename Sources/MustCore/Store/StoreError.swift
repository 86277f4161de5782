import Foundation

/// Problems opening or using the database, phrased for the person at the terminal.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file was migrated by a newer mustc; it is left untouched.
    case newerSchema(path: String, unknownMigrations: [String])
    case cannotOpen(path: String, reason: String)
    /// Only a user who may write the file can fix it; `owner` names the file's owner.
    case needsWriteAccess(path: String, why: String, owner: String)
    case busy(path: String)
    case failed(reason: String)

    public var description: String {
        switch self {
        case .newerSchema(let path, let unknown):
            "database \(path) was created by a newer mustc (it has migration \(unknown.joined(separator: ", ")) "
                + "that this version does not know); upgrade mustc, or point --database at another file. "
                + "The file was not changed."
        case .cannotOpen(let path, let reason):
            "cannot open database \(path): \(reason)"
        case .needsWriteAccess(let path, let why, let owner):
            "database \(path) \(why); run a command that writes, such as `mustc fetch` or `mustc add`, as "
                + "\(owner) (the file's owner)"
        case .busy(let path):
            "database \(path) stayed locked by another process; try again in a moment"
        case .failed(let reason):
            "database error: \(reason)"
        }
    }
}
