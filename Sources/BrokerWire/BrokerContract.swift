/// The names of the broker's bus API, as docs/dbus/org.webauthsession.Broker1.xml documents them.
/// That file is the contract; ``interfaceXML`` is the same interfaces without the comments (a test
/// holds them equal).
public enum BrokerContract {
    /// The well-known name the broker owns on the session bus.
    public static let busName = "org.webauthsession.Broker"
    /// The broker's object.
    public static let objectPath = "/org/webauthsession/Broker"
    /// The broker's interface.
    public static let interface = "org.webauthsession.Broker1"
    /// The interface of a request object (a SignIn or SignOut in progress).
    public static let requestInterface = "org.webauthsession.Request1"
    /// The signal that ends a request.
    public static let responseSignal = "Response"
    /// The interface's version: its property `Version`.
    public static let version: UInt32 = 1
    /// The property that holds ``version``.
    public static let versionProperty = "Version"
    /// The property that says whether the broker can show a person's `SignIn` window (it has a display).
    public static let canShowWindowsProperty = "CanShowWindows"
    /// Where request objects live: `PREFIX/SENDER/TOKEN`.
    public static let requestPathPrefix = "/org/webauthsession/Broker/request"

    /// The broker's and a request's interfaces, for GDBus's introspection data.
    public static let interfaceXML = """
        <node>
          <interface name="org.webauthsession.Broker1">
            <method name="SignIn">
              <arg type="s" name="parent_window" direction="in"/>
              <arg type="a{sv}" name="options" direction="in"/>
              <arg type="o" name="handle" direction="out"/>
            </method>
            <method name="GetToken">
              <arg type="a{sv}" name="options" direction="in"/>
              <arg type="a{sv}" name="results" direction="out"/>
            </method>
            <method name="ListAccounts">
              <arg type="aa{sv}" name="accounts" direction="out"/>
            </method>
            <method name="SignOut">
              <arg type="s" name="parent_window" direction="in"/>
              <arg type="a{sv}" name="options" direction="in"/>
              <arg type="o" name="handle" direction="out"/>
            </method>
            <property name="Version" type="u" access="read"/>
            <property name="CanShowWindows" type="b" access="read"/>
          </interface>
          <interface name="org.webauthsession.Request1">
            <method name="Close"/>
            <signal name="Response">
              <arg type="u" name="response"/>
              <arg type="a{sv}" name="results"/>
            </signal>
          </interface>
        </node>
        """
}
