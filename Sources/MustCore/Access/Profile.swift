import Foundation

/// A member as "Who's watching?" shows them: every member is a profile.
public struct Profile: Sendable, Equatable {
    public var memberId: Int64
    public var name: String
    /// A kid sees only movies within their own age limit, and edits only their own list, marks and ratings.
    public var kid: Bool
    /// Choosing the profile asks for its PIN.
    public var hasPin: Bool
    /// The member's own age limit (a certification of the family's region); nil: none.
    public var ageLimit: String?

    public init(memberId: Int64, name: String, kid: Bool, hasPin: Bool, ageLimit: String?) {
        (self.memberId, self.name, self.kid, self.hasPin, self.ageLimit) = (memberId, name, kid, hasPin, ageLimit)
    }
}

/// What a viewer of the page may see and do: decided once per request from their session (or a proxy's header),
/// read by every route. The family password keeps every right it had; a member edits only their own things.
public struct PageAccess: Sendable, Equatable {
    /// Who is watching, when a profile was chosen (with or without the family password).
    public var profile: Profile?
    /// The family password's rights: every list, the nights, the settings.
    public var parent: Bool
    /// Signed in by a trusted proxy's header: there is no "Switch", the proxy decides who this is.
    public var fromProxy = false

    public init(profile: Profile?, parent: Bool, fromProxy: Bool = false) {
        (self.profile, self.parent, self.fromProxy) = (profile, parent, fromProxy)
    }

    /// The family password's session of before profiles existed: every right, nobody in particular.
    public static let familyPassword = PageAccess(profile: nil, parent: true)

    /// A kid's profile, without the family password: sees and edits the least.
    public var isKid: Bool { !parent && profile?.kid == true }

    /// What the viewer may see: a kid only what their own age limit admits.
    public var audience: Audience { isKid ? .limited(profile?.ageLimit) : .everyone }

    /// Whether the viewer may change `member`'s list, watched marks and ratings: the password any list, a member
    /// only their own (names folded as they are matched everywhere).
    public func mayEdit(member: String) -> Bool {
        parent || profile.map { TitleKey.make($0.name) == TitleKey.make(member) } == true
    }

    /// Recording and taking back movie nights for the members ticked, and "Not for us": grown-ups, not kids.
    public var mayRecordNights: Bool { parent || (profile != nil && !isKid) }

    /// Age limits, services, other members: the family password only.
    public var mayChangeSettings: Bool { parent }

    public func allows(_ right: PageRight) -> Bool {
        switch right {
        case .anyone: true
        case .list(let member): mayEdit(member: member)
        case .nights: mayRecordNights
        case .parent: parent
        }
    }
}

/// What a form needs of its sender.
public enum PageRight: Sendable, Equatable {
    /// Any signed-in viewer (sign-out, switch).
    case anyone
    /// This member's list, marks and ratings.
    case list(String)
    /// Movie nights and "Not for us".
    case nights
    /// The family password: settings, and what is nobody's own.
    case parent
}

/// Who a page is shown to, as far as movies go.
public enum Audience: Sendable, Equatable, Hashable {
    case everyone
    /// A kid with this age limit: movies rated above it, and movies with no certification in the family's
    /// region, are left out; nil (the limit "none") leaves nothing out.
    case limited(String?)

    /// The limit a kid's page applies; nil when nothing is left out.
    public var limit: String? {
        if case .limited(let limit) = self { return limit }
        return nil
    }

    public var leavesOut: Bool { limit != nil }
}

/// A profile's PIN: 4 to 8 digits, kept only as a bcrypt hash, as the family password is.
public enum ProfilePin {
    public static let digits = 4...8

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notDigits
        case different

        public var description: String {
            switch self {
            case .notDigits:
                "a PIN is \(ProfilePin.digits.lowerBound) to \(ProfilePin.digits.upperBound) digits (0-9), nothing else"
            case .different: "the two PINs differ"
            }
        }
    }

    public static func validate(_ pin: String) throws(Problem) -> String {
        guard digits.contains(pin.utf8.count), pin.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .notDigits
        }
        return pin
    }

    public static func hash(_ pin: String) -> String { FamilyPassword.hash(pin) }

    /// Whether `pin` matches the stored hash; anything that is not a PIN never matches.
    public static func verify(_ pin: String, hash: String) -> Bool {
        guard (try? validate(pin)) != nil else { return false }
        return FamilyPassword.verifyAnyText(pin, hash: hash)
    }
}
