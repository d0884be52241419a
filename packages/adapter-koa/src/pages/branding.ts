/**
 * The operator's look of the pages modules show: the login pages' (set by the login module's branding
 * settings), which it provides to other modules' pages (the container's `PageBranding`).
 */
export interface Branding {
  /** Shown at the top of every page and in its title. */
  readonly title: string;
  /** An image shown before the title: an http(s) URL or a path on this server. */
  readonly logoUrl?: string;
  /** The logo's text alternative; the title when absent. */
  readonly logoAlt?: string;
  /** A paragraph of the operator's own under the login form's heading. */
  readonly text?: string;
  readonly colours: BrandColours;
}

/** Colours as `#rgb` or `#rrggbb`; the configuration checks their contrast (WCAG AA). */
export interface BrandColours {
  readonly background: string;
  readonly text: string;
  /** Buttons, links, focus outlines and the border of messages. */
  readonly accent: string;
  /** Text on accent (button labels). */
  readonly accentText: string;
}

export const DEFAULT_COLOURS: BrandColours = { background: '#ffffff', text: '#1b1f24', accent: '#1d4ed8', accentText: '#ffffff' };

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function isHexColour(value: string): boolean {
  return HEX_COLOUR.test(value);
}

/** WCAG 2 contrast ratio of two `#rgb`/`#rrggbb` colours, from 1 to 21. */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

function relativeLuminance(colour: string): number {
  const hex = colour.length === 4 ? [...colour.slice(1)].map((digit) => digit + digit).join('') : colour.slice(1);
  const [red, green, blue] = [0, 2, 4].map((offset) => {
    const channel = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

/**
 * The pages' one small stylesheet: readable type, visible focus, nothing that needs a script. Colours
 * come only from `#hex` values, checked again here, so a setting can never write CSS of its own.
 */
export function stylesheet(colours: BrandColours): string {
  for (const [name, value] of Object.entries(colours) as [string, string][]) if (!isHexColour(value)) throw new Error(`the branding's ${name} colour is not a #hex colour`);
  const { background, text, accent, accentText } = colours;
  return `*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;font-size:100%;line-height:1.5;color:${text};background:${background}}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center}
header{width:100%;max-width:28rem;padding:2rem 1.5rem 0;display:flex;align-items:center;gap:.75rem}
header img{max-height:3rem;max-width:10rem}
.service-logo{display:block;max-height:3rem;max-width:10rem;margin-bottom:.5rem}
.brand{font-size:1.25rem;font-weight:600}
main{width:100%;max-width:28rem;padding:1rem 1.5rem 3rem}
h1{font-size:1.75rem;line-height:1.25;margin:.5rem 0 1rem}
p{margin:0 0 1rem}
a{color:${accent};text-decoration-thickness:.1em;text-underline-offset:.15em}
.field{margin:0 0 1.25rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input[type=text],input[type=password]{width:100%;font:inherit;padding:.6rem .75rem;color:${text};background:${background};border:2px solid ${text};border-radius:.375rem}
.hint{font-size:.9rem;margin:.25rem 0 0}
.check{display:flex;gap:.5rem;align-items:flex-start;margin:0 0 1.5rem}
.check input{width:1.25rem;height:1.25rem;margin:.15rem 0 0;accent-color:${accent}}
.check label{font-weight:400;margin:0}
button{font:inherit;font-weight:600;color:${accentText};background:${accent};border:2px solid ${accent};border-radius:.375rem;padding:.6rem 1.5rem;cursor:pointer}
button:hover{text-decoration:underline}
button.secondary{color:${text};background:${background};border-color:${text}}
.buttons{display:flex;flex-wrap:wrap;gap:.75rem}
fieldset{border:0;padding:0;margin:0 0 1.25rem}
legend{font-weight:600;padding:0;margin-bottom:.25rem}
dl{margin:0 0 1.25rem}
dt{font-weight:600}
dd{margin:0 0 .5rem;overflow-wrap:anywhere}
:focus-visible{outline:3px solid ${accent};outline-offset:2px}
.message{border-left:.375rem solid ${accent};padding:.5rem .75rem;font-weight:600}
`;
}
