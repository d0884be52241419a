/**
 * The one escaping layer of the HTML pages (the login module's, and what other modules add to them): `html` is a tagged template whose every interpolated
 * value is escaped for text and for double-quoted attributes, unless it is Html already (a fragment
 * built the same way). Html holds only escaped text or markup of this package, so no value reaches a page unescaped.
 */
export class Html {
  /** Made by `html` and `formatMessage`, whose output is escaped markup. */
  private constructor(readonly markup: string) {}

  /** Markup written by this package itself (the stylesheet, a script), never anything from a request or a setting. */
  static trusted(markup: string): Html {
    return new Html(markup);
  }

  toString(): string {
    return this.markup;
  }
}

/** What a template may interpolate: text (escaped), markup, lists of markup, or nothing. */
export type HtmlValue = string | number | Html | readonly Html[] | undefined | null | false;

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += render(value) + (strings[index + 1] ?? '');
  });
  return Html.trusted(markup);
}

function render(value: HtmlValue): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return (value as readonly Html[]).map((item) => item.markup).join('');
  return escapeHtml(String(value));
}

/**
 * A message with `{name}` placeholders: the message and each value escaped, each value wrapped in
 * `<strong>`. A placeholder without a value stays as written.
 */
export function formatMessage(template: string, values: Readonly<Record<string, string>>): Html {
  const parts = template.split(/(\{[A-Za-z]+\})/);
  return Html.trusted(
    parts
      .map((part) => {
        const name = /^\{([A-Za-z]+)\}$/.exec(part)?.[1];
        const value = name === undefined ? undefined : values[name];
        return value === undefined ? escapeHtml(part) : `<strong>${escapeHtml(value)}</strong>`;
      })
      .join(''),
  );
}
