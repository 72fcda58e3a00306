"""An independent relying party for the virtual authenticator's answers: python-fido2's
Fido2Server (Debian's python3-fido2) checks a registration and then an assertion, as a real
provider's library would. Reads one JSON object from the file named by its argument:
{"rp_id", "origin", "registration_challenge", "registration", "assertion_challenge", "assertion"}
(challenges base64url, the two responses as PublicKeyCredential.toJSON() gives them), and prints
"verified <algorithm> <sign count>" or exits 1 with python-fido2's reason."""
import json
import sys

from fido2.client import ClientData
from fido2.ctap2 import AttestationObject, AuthenticatorData
from fido2.server import Fido2Server
from fido2.utils import websafe_decode
from fido2.webauthn import PublicKeyCredentialRpEntity

with open(sys.argv[1]) as file:
    request = json.load(file)
server = Fido2Server(PublicKeyCredentialRpEntity(request["rp_id"], "test"), verify_origin=lambda origin: origin == request["origin"])
try:
    registration = request["registration"]["response"]
    state = {"challenge": request["registration_challenge"], "user_verification": "required"}
    auth_data = server.register_complete(state, ClientData(websafe_decode(registration["clientDataJSON"])),
                                         AttestationObject(websafe_decode(registration["attestationObject"])))
    credential = auth_data.credential_data
    assertion = request["assertion"]
    state = {"challenge": request["assertion_challenge"], "user_verification": "required"}
    signed = AuthenticatorData(websafe_decode(assertion["response"]["authenticatorData"]))
    server.authenticate_complete(state, [credential], websafe_decode(assertion["rawId"]),
                                 ClientData(websafe_decode(assertion["response"]["clientDataJSON"])), signed,
                                 websafe_decode(assertion["response"]["signature"]))
except ValueError as error:
    print(error)
    sys.exit(1)
print("verified", type(credential.public_key).__name__, signed.counter)
