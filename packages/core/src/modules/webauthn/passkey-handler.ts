import type { Credential } from '../../domain/authentication/credential.js';
import type { Principal } from '../../domain/authentication/principal.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { CredentialHandler } from '../../ports/credential-handler.js';
import type { UserDirectory } from '../../ports/user-directory.js';
import { refused, type WebAuthnCeremonies } from './ceremonies.js';
import { isWebAuthnAssertionCredential } from './credential.js';
import type { PasskeyChallenges } from './passkey-challenges.js';

/**
 * The passkey login (no password): an assertion of a discoverable credential answering a challenge of
 * the login page, taken from the store once (a replayed or expired one is refused), with user
 * verification required (a PIN or biometric on the authenticator: the passkey is then a factor the
 * user has and one the user knows or is). Its user is the device's, named by the user handle the
 * answer must carry; the user's attributes are those of the user directory, when it has the user.
 */
export class PasskeyHandler implements CredentialHandler {
  constructor(
    readonly name: string,
    private readonly ceremonies: WebAuthnCeremonies,
    private readonly challenges: PasskeyChallenges,
    private readonly directory: UserDirectory,
  ) {}

  supports(credential: Credential): boolean {
    return isWebAuthnAssertionCredential(credential);
  }

  async authenticate(credential: Credential, origin?: RequestOrigin): Promise<Principal> {
    if (!isWebAuthnAssertionCredential(credential)) throw refused();
    // Taken first, whatever the answer: a challenge is answered once, right or wrong.
    const challenge = await this.challenges.take(credential.challengeId);
    if (challenge === undefined) throw refused();
    const userHandle = (credential.response as { response?: { userHandle?: unknown } } | undefined)?.response?.userHandle;
    if (typeof userHandle !== 'string' || userHandle === '') throw refused();
    const { device } = await this.ceremonies.verifyAssertion(credential.response, { challenge, requireUserVerification: true }, origin);
    const user = await this.directory.findByUsername(device.username);
    return { id: device.username, attributes: user?.attributes ?? {} };
  }
}
