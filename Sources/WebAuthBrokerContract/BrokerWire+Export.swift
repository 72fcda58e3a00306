// The contract's names, values and errors live in BrokerWire, which `webauth`'s shortcut links
// without the protocol: whoever imports the contract sees them as its own.
@_exported import BrokerWire
