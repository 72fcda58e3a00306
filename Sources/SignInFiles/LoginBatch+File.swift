/// Batch files (`webauth batch FILE`): YAML, or JSON.
extension LoginBatch: YAMLDocument {
    /// `batch file`, in messages about a batch file.
    public static let fileKind = "batch file"
}

/// Why a batch file could not be used.
public typealias LoginBatchFileError = YAMLFileError<LoginBatch>
