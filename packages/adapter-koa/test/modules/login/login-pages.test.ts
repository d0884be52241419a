import { expect } from 'chai';
import { contrastRatio, DEFAULT_COLOURS, MESSAGES } from '@tessera/adapter-koa/modules/login';
import { escapeHtml, formatMessage, html } from '../../../src/pages/html.js';
import { otpFormField } from '../../../src/modules/otp/index.js';
import { withTicket } from '../../../src/modules/login/login-routes.js';
import { LoginPages } from '../../../src/modules/login/pages.js';

// docs/protocol.md §12: the pages' escaping layer, and what the pages carry.
describe('login pages: escaping and markup (docs/protocol.md §12)', () => {
  it('escapes every interpolated text for element content and double-quoted attributes', () => {
    const hostile = `"><script>alert('x')</script>&`;
    const escaped = '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;';
    expect(html`<p title="${hostile}">${hostile}</p>`.toString()).to.equal(`<p title="${escaped}">${escaped}</p>`);
    expect(escapeHtml('a&b<c>d"e\'f')).to.equal('a&amp;b&lt;c&gt;d&quot;e&#39;f');
  });

  it('keeps fragments built by html as they are, drops absent values, and escapes numbers as text', () => {
    const item = html`<li>${'<b>'}</li>`;
    expect(html`<ul>${[item, item]}${undefined}${null}${false}</ul><i>${42}</i>`.toString()).to.equal('<ul><li>&lt;b&gt;</li><li>&lt;b&gt;</li></ul><i>42</i>');
  });

  it('fills message placeholders with escaped values in bold, and escapes the message itself', () => {
    expect(formatMessage('Hi <{principal}> at {service} {unknown}', { principal: '<alice>', service: 'a&b' }).toString()).to.equal(
      'Hi &lt;<strong>&lt;alice&gt;</strong>&gt; at <strong>a&amp;b</strong> {unknown}',
    );
  });

  it('appends the ticket to the query, before any fragment', () => {
    expect(withTicket('https://a.example/x', 'ST-1')).to.equal('https://a.example/x?ticket=ST-1');
    expect(withTicket('https://a.example/x?y=1#top', 'ST-1')).to.equal('https://a.example/x?y=1&ticket=ST-1#top');
  });

  it('a page escapes what comes from the request and from settings, and its CSP allows only its own style', () => {
    const pages = new LoginPages({ branding: { title: 'Uni <b>', text: 'Ask "help"', logoUrl: '/logo.svg?a=1&b=2', colours: DEFAULT_COLOURS }, messages: MESSAGES.en, basePath: '/cas' });
    const parts = [{ view: pages.password }, { view: otpFormField('otp') }];
    const page = pages.loginForm({ formToken: 't"k', service: 'https://app.example.org/"><x>', renew: false, method: 'GET', username: '<bob>', message: 'x', parts });
    expect(page.markup).to.include('<title>Log in – Uni &lt;b&gt;</title>');
    expect(page.markup).to.include('<img src="/logo.svg?a=1&amp;b=2" alt="Uni &lt;b&gt;">');
    expect(page.markup).to.include('<p>Ask &quot;help&quot;</p>');
    expect(page.markup).to.include('value="t&quot;k"').and.include('value="https://app.example.org/&quot;&gt;&lt;x&gt;"').and.include('value="&lt;bob&gt;"');
    expect(page.markup).to.include('<label for="otp">One-time code</label><input type="text" id="otp" name="otp"');
    expect(page.markup).to.not.include('<x>').and.not.include('<bob>');
    expect(page.contentSecurityPolicy).to.match(/^default-src 'none'; style-src 'sha256-[\w+/=]+'; script-src 'none'; /);
  });

  it('checks colour contrast as WCAG 2 defines it', () => {
    expect(contrastRatio('#000000', '#ffffff')).to.equal(21);
    expect(contrastRatio('#fff', '#fff')).to.equal(1);
    expect(contrastRatio(DEFAULT_COLOURS.text, DEFAULT_COLOURS.background)).to.be.above(4.5);
    expect(contrastRatio(DEFAULT_COLOURS.accentText, DEFAULT_COLOURS.accent)).to.be.above(4.5);
    expect(contrastRatio('#777777', '#ffffff')).to.be.within(4.47, 4.49);
  });
});
