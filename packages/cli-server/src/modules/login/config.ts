import { z } from 'zod';
import { contrastRatio, DEFAULT_COLOURS, isHexColour, LOGIN_LANGUAGES } from '@tessera/adapter-koa/modules/login';
import { DEFAULT_MAX_PER_SESSION, loginSecretProblem } from '@tessera/core/modules/login';
import { integerFrom, positiveInteger, section } from '../../config/setting-schemas.js';

/** WCAG 2 AA for normal text. */
const MIN_CONTRAST = 4.5;

const colour = (fallback: string, what: string) =>
  z
    .string({ error: 'expected a colour such as #1d4ed8' })
    .refine(isHexColour, { error: 'expected a colour such as #1d4ed8 (#rgb or #rrggbb)' })
    .default(fallback)
    .describe(what);

const colours = section({
  background: colour(DEFAULT_COLOURS.background, 'Page background.'),
  text: colour(DEFAULT_COLOURS.text, 'Text, and the borders of the input fields.'),
  accent: colour(DEFAULT_COLOURS.accent, 'Buttons, links, focus outlines and the border of messages.'),
  accentText: colour(DEFAULT_COLOURS.accentText, 'Button labels, on the accent colour.'),
}).superRefine((chosen, context) => {
  // Fail closed on unreadable pages: each pair must meet WCAG AA (4.5:1) for text.
  const pairs = [
    ['text', 'background'],
    ['accent', 'background'],
    ['accentText', 'accent'],
  ] as const;
  for (const [foreground, background] of pairs) {
    const ratio = contrastRatio(chosen[foreground], chosen[background]);
    if (ratio < MIN_CONTRAST) {
      context.addIssue({ code: 'custom', path: [foreground], message: `contrast with ${background} is ${ratio.toFixed(2)}:1; at least ${MIN_CONTRAST}:1 is needed (WCAG AA)`, input: chosen[foreground] });
    }
  }
});

const logoUrl = z
  .string({ error: 'expected an https URL or a path on this server' })
  .refine((url) => /^https:\/\/[^\s"'<>]+$/.test(url) || /^\/[^\s"'<>]*$/.test(url), { error: 'expected an https URL or a path on this server such as /static/logo.svg' });

/**
 * Settings of the `login` module (docs/protocol.md §12): the cookie and form keys, the look of the
 * pages, and how single logout delivers its requests.
 */
export const loginSchema = section({
  key: z
    .string({ error: 'expected base64url text of 32 bytes' })
    .optional()
    .superRefine((key, context) => {
      const problem = key === undefined ? undefined : loginSecretProblem(key);
      if (problem) context.addIssue({ code: 'custom', message: problem, input: '(secret)' });
    })
    .describe('Secret (base64url of 32 bytes) from which the ticket-granting cookie’s encryption key and the form tokens’ signing key are derived. Unset: taken from `login.keyFile`. Every node needs the same.'),
  keyFile: z
    .string({ error: 'expected a file path' })
    .min(1, { error: 'expected a file path' })
    .default('tessera-login-key.json')
    .meta({ defaultText: '`tessera-login-key.json` (in demo mode: in `~/.local/state/tessera`, or `$XDG_STATE_HOME/tessera`)' })
    .describe('Where the secret is kept when `login.key` is unset: read if it exists, else generated on first start and written with mode 0600. Share it between nodes; a warning at start names it when group or others may read it.'),
  formTokenLifetimeSeconds: positiveInteger(86400).default(1800).describe('How long a login form may stay open before it must be loaded again; each form token works once.'),
  language: z
    .enum(LOGIN_LANGUAGES, { error: `expected ${LOGIN_LANGUAGES.join(', ')}` })
    .default('en')
    .describe('Language of the login pages.'),
  branding: section({
    title: z.string({ error: 'expected a text' }).min(1, { error: 'expected a text' }).max(100, { error: 'expected at most 100 characters' }).default('tessera').describe('Name shown at the top of every page and in its title.'),
    logoUrl: logoUrl.optional().describe('Logo shown before the title: an https URL or a path on this server.'),
    logoAlt: z.string({ error: 'expected a text' }).max(200, { error: 'expected at most 200 characters' }).optional().meta({ defaultText: 'the title' }).describe('Text alternative of the logo.'),
    text: z.string({ error: 'expected a text' }).max(1000, { error: 'expected at most 1000 characters' }).optional().describe('A paragraph of your own under the login form’s heading, e.g. whom to ask for help.'),
    colours: colours.prefault({}),
  }).prefault({}),
  singleLogout: section({
    timeoutMs: integerFrom(1, 60_000).default(5000).describe('How long one logout request may take before it counts as failed.'),
    attempts: integerFrom(1, 10).default(3).describe('Attempts per logout request (the first and its retries); an answer 2xx, 301, 302 or 304 (as CAS) ends them.'),
    retryDelayMs: integerFrom(0, 600_000).default(1000).describe('Wait before the first retry; doubled before each further one.'),
    expiryCheckSeconds: positiveInteger(86400).default(60).describe('How often a node looks for login sessions that expired, to send their logout requests.'),
    maxPerSession: positiveInteger(10_000)
      .default(DEFAULT_MAX_PER_SESSION)
      .describe('How many services one login session keeps to tell (one per validated ticket of an opted-in service); past it the oldest is dropped and reported as `logout.request.dropped`.'),
    concurrency: positiveInteger(1000).default(8).describe('How many logout requests one node has in flight at once; the others, retries included, wait their turn. A logout never waits for them.'),
  }).prefault({}),
});

export type LoginConfig = z.output<typeof loginSchema>;

export const loginSections = { login: loginSchema.prefault({}) };
