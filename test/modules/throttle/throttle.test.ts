import { expect } from 'chai';
import { Browser } from '../../support/browser.js';
import { form, login, startTessera, type Tessera } from '../../support/tessera.js';
import { startLogin } from '../login/support.js';
import { makePkiFiles, type PkiFiles } from '../x509/support.js';

const SETTINGS = { failure: { threshold: 3, rangeSeconds: 60, lockSeconds: 30, maxLockSeconds: 120 } };

// docs/protocol.md §5 — the throttle module over real HTTP; no sleeps: the lock is read from 423 and Retry-After
describe('throttle module end to end (docs/protocol.md §5)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({ modules: ['rest', 'throttle'], throttle: SETTINGS });
  });
  after(() => tessera.close());

  const attempt = (path: string, username: string, password: string) =>
    fetch(`${tessera.url}${path}`, { ...form({ username, password }), headers: { ...form({}).headers, accept: 'text/plain' } });

  it('holds a brute force against /v1/tickets with 423 and Retry-After, whatever the password, and logs the lock', async () => {
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await attempt('/v1/tickets', 'casuser', `guess-${i}`)).status);
    expect(statuses).to.deep.equal([401, 401, 401, 423, 423, 423, 423, 423]);
    const locked = await attempt('/v1/tickets', 'CASUSER', 'Mellon');
    expect(locked.status).to.equal(423);
    expect(locked.headers.get('content-type')).to.match(/^application\/json/);
    expect(Number(locked.headers.get('retry-after'))).to.be.within(29, 30);
    expect(await locked.json()).to.deep.equal({ authentication_exceptions: ['Too many failed attempts. Try again later.'] });
    expect((await attempt('/v1/users', 'casuser', 'Mellon')).status).to.equal(423);
    const lockLines = tessera.logs.filter((line) => line.includes('"event":"authentication.throttled"'));
    expect(lockLines).to.have.length(1);
    expect(lockLines[0]).to.include('"lockSeconds":30').and.not.include('guess');
  });

  it('keeps other usernames of the same client open', async () => {
    expect(await login(tessera.url, 'alice', 'secret')).to.match(/^TGT-/);
  });

  it('limits validation requests per client IP when a rate is set: 429 with Retry-After', async () => {
    const limited = await startTessera({ modules: ['rest', 'throttle'], throttle: { validation: { requestsPerSecond: 0.01, burst: 2 } } });
    try {
      const validate = () => fetch(`${limited.url}/p3/serviceValidate?service=https%3A%2F%2Fapp.example.org%2F&ticket=ST-1-x-e2e`);
      expect([(await validate()).status, (await validate()).status]).to.deep.equal([400, 400]);
      const refused = await validate();
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(99, 100);
      expect(await refused.text()).to.include('code="INVALID_REQUEST"');
    } finally {
      await limited.close();
    }
  });

  it('a burst of new usernames never unlocks a locked key: with the key table full of locks, new keys are refused until a lock ends', async function () {
    // The bound is the memory store's: MongoDB keeps every key, so there is nothing to flush.
    if ((process.env.E2E_STORAGE ?? 'memory') !== 'memory') this.skip();
    const small = await startTessera({ modules: ['rest', 'throttle'], throttle: { failure: { threshold: 1, lockSeconds: 30, maxLockSeconds: 30 }, memory: { maxKeys: 3 } } });
    try {
      const post = (username: string, password = 'wrong') =>
        fetch(`${small.url}/v1/tickets`, { ...form({ username, password }), headers: { ...form({}).headers, accept: 'text/plain' } });
      expect((await post('casuser')).status).to.equal(401);
      expect((await post('casuser', 'Mellon')).status).to.equal(423);
      // The attacker fills the table with keys of their own, then keeps sending new ones.
      for (const username of ['flood-1', 'flood-2']) expect((await post(username)).status).to.equal(401);
      const refused = await post('flood-3');
      expect(refused.status).to.equal(423);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 30);
      expect((await post('flood-4', 'anything')).status).to.equal(423);
      expect((await post('casuser', 'Mellon')).status).to.equal(423);
    } finally {
      await small.close();
    }
  });

  it('is off by default: failures never lock', async () => {
    const plain = await startTessera();
    try {
      const post = () => fetch(`${plain.url}/v1/tickets`, form({ username: 'casuser', password: 'wrong' }));
      for (let i = 0; i < 6; i++) expect((await post()).status).to.equal(401);
      expect(await login(plain.url)).to.match(/^TGT-/);
    } finally {
      await plain.close();
    }
  });
});

// docs/protocol.md §5.1: a success forgets only the failures of whom it proved.
describe("throttle: another principal's success never forgets a user's failures (docs/protocol.md §5.1)", () => {
  let pki: PkiFiles;
  let tessera: Tessera;
  before(async () => {
    pki = await makePkiFiles();
    // Behind a trusted proxy, so each test is its own client address; the certificate field is believed from this peer.
    tessera = await startLogin({
      server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', trustProxy: true },
      modules: ['rest', 'login', 'x509', 'throttle'],
      x509: { trustAnchors: [pki.files.root], crl: { files: [pki.files.crl] }, sources: ['form'], trustedProxies: ['127.0.0.1', '::1'] },
      throttle: SETTINGS,
    });
  });
  after(async () => {
    await tessera.close();
    pki.remove();
  });

  it("POST /v1/tickets: alice's username with mallory's valid certificate logs mallory in, and leaves alice's count alone: the guesses lock", async () => {
    const post = (fields: Record<string, string>) =>
      fetch(`${tessera.url}/v1/tickets`, { ...form(fields), headers: { ...form({}).headers, accept: 'text/plain', 'x-forwarded-for': '198.51.100.20' } });
    const guesses: number[] = [];
    const mallory: number[] = [];
    for (let i = 0; i < 12; i++) {
      guesses.push((await post({ username: 'alice', password: `guess-${i}` })).status);
      mallory.push((await post({ username: 'alice', cert: pki.mallory.pem })).status);
    }
    expect(guesses).to.deep.equal([401, 401, 401, ...Array<number>(9).fill(423)]);
    // Mallory logs in as mallory until alice's key locks; the lock holds whatever credential comes with her name.
    expect(mallory).to.deep.equal([201, 201, ...Array<number>(10).fill(423)]);
    expect((await post({ username: 'alice', password: 'secret' })).status).to.equal(423);
  });

  it("POST /login: the same through the login form, whose cert field logs mallory in", async () => {
    const browser = new Browser({ 'x-forwarded-for': '198.51.100.30' });
    // renew: the form even while mallory's session is on.
    const submit = async (fields: Record<string, string>) => browser.submit(await browser.get(`${tessera.url}/login?renew=true`), fields);
    const guesses: number[] = [];
    const mallory: number[] = [];
    for (let i = 0; i < 12; i++) {
      guesses.push((await submit({ username: 'alice', password: `guess-${i}` })).status);
      const loggedIn = await submit({ username: 'alice', cert: pki.mallory.pem });
      mallory.push(loggedIn.status);
      if (loggedIn.status === 200) expect(loggedIn.body).to.include('You are logged in as <strong>CN=mallory,O=Example</strong>');
    }
    expect(guesses).to.deep.equal([401, 401, 401, ...Array<number>(9).fill(423)]);
    expect(mallory).to.deep.equal([200, 200, ...Array<number>(10).fill(423)]);
  });

  it("the user's own success still forgets their failures", async () => {
    const post = (username: string, password: string) =>
      fetch(`${tessera.url}/v1/tickets`, { ...form({ username, password }), headers: { ...form({}).headers, accept: 'text/plain', 'x-forwarded-for': '198.51.100.40' } });
    const round = async () => [(await post('alice', 'wrong')).status, (await post('alice', 'wrong')).status, (await post('alice', 'secret')).status];
    for (let i = 0; i < 3; i++) expect(await round()).to.deep.equal([401, 401, 201]);
  });
});

// docs/protocol.md §5: an IPv6 host is handed a whole /64 and may send from any of its addresses, so every
// per-client count of the module is kept per /64 network.
describe('throttle: an IPv6 client counts by its /64 network (docs/protocol.md §5)', () => {
  let tessera: Tessera;
  before(async () => {
    // Behind a trusted proxy, so each request names its client address in X-Forwarded-For.
    tessera = await startTessera({
      server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', trustProxy: true },
      modules: ['rest', 'throttle'],
      throttle: { ...SETTINGS, validation: { requestsPerSecond: 0.01, burst: 2 } },
    });
  });
  after(() => tessera.close());

  const from = (address: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), accept: 'text/plain', 'x-forwarded-for': address } });

  it('failed logins from addresses of one /64 lock the whole network for the user; another /64 still logs in', async () => {
    const attempt = (address: string, password: string) => fetch(`${tessera.url}/v1/tickets`, from(address, form({ username: 'casuser', password })));
    const guesses: number[] = [];
    for (const address of ['2001:db8:0:7::1', '2001:db8:0:7:8c3e:11ff:fe42:9a01', '2001:DB8:0:7::3']) guesses.push((await attempt(address, 'wrong')).status);
    expect(guesses).to.deep.equal([401, 401, 401]);
    const locked = await attempt('2001:db8:0:7:ffff::9', 'Mellon');
    expect(locked.status).to.equal(423);
    expect(Number(locked.headers.get('retry-after'))).to.be.within(29, 30);
    expect((await attempt('2001:db8:0:8::1', 'Mellon')).status).to.equal(201);
    const lockLines = tessera.logs.filter((line) => line.includes('"event":"authentication.throttled"'));
    expect(lockLines).to.have.length(1);
    expect(lockLines[0]).to.include('"key":"2001:db8:0:7::/64 casuser"');
  });

  it('the validation request rate is one bucket per /64: its third request is refused from a new address of the network, not from another network', async () => {
    const validate = (address: string) => fetch(`${tessera.url}/p3/serviceValidate?service=https%3A%2F%2Fapp.example.org%2F&ticket=ST-1-x-e2e`, from(address));
    const statuses: number[] = [];
    for (const address of ['2001:db8:0:9::1', '2001:db8:0:9::2', '2001:db8:0:9:abcd::3']) statuses.push((await validate(address)).status);
    expect(statuses).to.deep.equal([400, 400, 429]);
    expect((await validate('2001:db8:0:a::1')).status).to.equal(400);
  });
});
