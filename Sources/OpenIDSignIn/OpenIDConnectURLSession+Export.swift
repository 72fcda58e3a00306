// The clients here send with URLSessionHTTPClient unless given another: code that imports
// OpenIDSignIn (or WebAuthSession) sees it without naming its module.
@_exported import OpenIDConnectURLSession
