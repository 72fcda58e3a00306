/// Login scripts written as files (`webauth login --script FILE`): YAML, or JSON.
extension LoginScript: YAMLDocument {
    /// `login script`, in messages about a script file.
    public static let fileKind = "login script"
}

/// Why a login script file could not be used.
public typealias LoginScriptFileError = YAMLFileError<LoginScript>
