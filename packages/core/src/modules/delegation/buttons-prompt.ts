import type { CredentialsPrompt, LoginPageContext } from '../../ports/login-prompt.js';
import { allowedProviderIds, DELEGATION_POLICY, providerRequired } from './policy.js';
import type { UpstreamButton } from './providers.js';

/**
 * What the login page's part shows: a button per upstream provider the service allows, in the
 * configured order; `redirect` when the service allows exactly one, exclusively (the page goes there
 * at once).
 */
export type DelegationButtons = { readonly providers: readonly UpstreamButton[]; readonly redirect: boolean };

/**
 * The login page's upstream buttons (a `credentials` prompt): shown when the service the login goes
 * on to (or no service) allows at least one upstream provider, as its `delegatedAuthenticationPolicy`
 * says.
 */
export class DelegationButtonsPrompt implements CredentialsPrompt<DelegationButtons> {
  readonly phase = 'credentials';
  readonly name = 'delegation';

  constructor(private readonly providers: readonly UpstreamButton[]) {}

  needed(context: LoginPageContext): Promise<boolean> {
    return Promise.resolve(this.allowed(context).length > 0);
  }

  /** A service whose allowed providers are its only way in (exclusive) gets no password form. */
  replacesPassword(context: LoginPageContext): Promise<boolean> {
    const policy = context.service === undefined ? undefined : DELEGATION_POLICY.of(context.service);
    return Promise.resolve(policy !== undefined && providerRequired(policy));
  }

  prepare(context: LoginPageContext): Promise<DelegationButtons> {
    const providers = this.allowed(context);
    const exclusive = context.service !== undefined && DELEGATION_POLICY.of(context.service)?.exclusive === true;
    return Promise.resolve({ providers, redirect: exclusive && providers.length === 1 });
  }

  private allowed(context: LoginPageContext): UpstreamButton[] {
    const policy = context.service === undefined ? undefined : DELEGATION_POLICY.of(context.service);
    const ids = allowedProviderIds(
      this.providers.map((provider) => provider.id),
      policy,
    );
    return this.providers.filter((provider) => ids.includes(provider.id)).map((provider) => ({ ...provider }));
  }
}
