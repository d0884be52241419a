import { DELEGATION_PARAMETERS, delegationPolicySection, POSTED_AGAIN, RELAY_STATE, SAML_RESPONSE, SIG_ALG, SIGNATURE } from '@tessera/adapter-koa/modules/delegation';
import { DELEGATED_CREDENTIAL_TYPE } from '@tessera/core/modules/delegation';
import type { TesseraModule } from '../module.js';
import { delegationSections } from './config.js';
import { delegationEvents } from './events.js';
import { providerProblems } from './problems.js';
import { registerDelegationModule } from './register.js';

/** `delegation`: logging in through another identity provider (an OpenID provider, an OAuth 2 provider, another CAS server, a SAML 2 identity provider), per service as Apereo CAS writes it. */
export const delegationModule: TesseraModule<typeof delegationSections> = {
  name: 'delegation',
  // Its buttons are part of the browser login's page, and the login form makes its session.
  dependencies: ['login'],
  comparisonRows: ['Delegated authentication (to another identity provider)'],
  sections: delegationSections,
  events: delegationEvents,
  // A proof of an upstream login: its shown id is the kind's name, no username.
  credentialKinds: [{ type: DELEGATED_CREDENTIAL_TYPE, provesUsername: false }],
  // The provider chosen on its start route; the one-time proof the page back from upstream posts to the login form.
  // An upstream's answer on its callback: the OpenID provider's code, state, iss and error (a CAS server's ticket is central). The
  // code is not marked secret: secret names are redacted under any key of every log line, and `code` is the field of error codes
  // there; it is single use and useless without the PKCE verifier kept on the server. A SAML 2 identity provider's posted
  // Response is secret (it proves the user until it expires); its RelayState is the state. A LogoutResponse over HTTP-Redirect
  // comes with its signature and the signature's algorithm in the query.
  parameters: () => [
    { name: DELEGATION_PARAMETERS.provider },
    { name: DELEGATION_PARAMETERS.proof, secret: true, credential: true },
    { name: 'code' },
    { name: 'state' },
    { name: 'iss' },
    { name: 'error' },
    { name: SAML_RESPONSE, secret: true },
    { name: RELAY_STATE },
    { name: POSTED_AGAIN },
    { name: SIG_ALG },
    { name: SIGNATURE },
  ],
  serviceSections: [delegationPolicySection],
  problems: ({ delegation }, { server }) => [
    ...providerProblems(delegation.providers),
    ...(delegation.providers.length > 0 && server.publicUrl === undefined
      ? [{ path: ['server', 'publicUrl'], message: 'is needed by the delegation module: upstream providers send the browser back to a URL built from it' }]
      : []),
  ],
  register: registerDelegationModule,
};
