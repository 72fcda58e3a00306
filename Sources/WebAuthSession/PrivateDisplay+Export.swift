// Why a private display could not be had (`NoDisplayReason`) is part of the engine's errors.
@_exported import PrivateDisplay
