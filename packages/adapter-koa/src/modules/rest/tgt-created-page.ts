const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * The page Apereo CAS answers a new TGT with when the client takes HTML (docs/protocol.md §3.2).
 * Clients such as connect-cas2 scrape `action="…/TGT-…"`, so the markup stays byte for byte.
 */
export function tgtCreatedPage(location: string): string {
  return (
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN"><html><head><title>201 CREATED</title></head><body>' +
    `<h1>TGT Created</h1><form action="${escapeHtml(location)}" method="POST">` +
    'Service:<input type="text" name="service" value=""><br><input type="submit" value="Submit"></form></body></html>'
  );
}

// HTML when Accept is absent or blank or, trimmed, starts with `*/*` or `text/html`; anything else gets the bare id.
export function acceptsHtml(accept: string): boolean {
  const preferred = accept.trim().toLowerCase();
  return preferred === '' || preferred.startsWith('*/*') || preferred.startsWith('text/html');
}
