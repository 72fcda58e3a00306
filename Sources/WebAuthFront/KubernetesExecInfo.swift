import Foundation

/// What client-go says in `KUBERNETES_EXEC_INFO` that the shortcut needs: the ExecCredential version it wants.
enum KubernetesExecInfo {
    /// The version of `text`'s `apiVersion` when it is client.authentication.k8s.io's, else v1 (also
    /// without the variable); `nil` when the text is not what the shortcut can read.
    static func apiVersion(_ text: String?) -> String? {
        let standard = "client.authentication.k8s.io/v1"
        guard let text, !text.isEmpty else { return standard }
        guard let info = try? JSONDecoder().decode(Info.self, from: Data(text.utf8)) else { return nil }
        return info.apiVersion.flatMap { $0.hasPrefix("client.authentication.k8s.io/") ? $0 : nil } ?? standard
    }

    private struct Info: Decodable {
        let apiVersion: String?
    }
}
