import { expect } from 'chai';
import { cryptoRandomSource } from '@tessera/core';
import { CasJwtCodec, JwtTickets, REQUEST_PARAMETERS_CLAIM, generateTokenKeys } from '@tessera/core/modules/tokens';
import { password, service } from '../../fakes.js';
import { APP, coreWithFakes } from '../../harness.js';

const ISSUER = 'https://cas.example.org/cas';

async function setup() {
  const harness = coreWithFakes([service({ properties: { jwtAsServiceTicket: ['true'] } })]);
  const codec = new CasJwtCodec({ ...generateTokenKeys('A128CBC-HS256', cryptoRandomSource), encryptionAlgorithm: 'A128CBC-HS256' }, harness.clock);
  const tokens = new JwtTickets(codec, harness.clock, harness.core.relyingParties.release, undefined);
  const tgt = await harness.core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] });
  return { ...harness, codec, tokens, tgt };
}

describe('JWT tickets: claims and ids (docs/protocol.md §6)', () => {
  it('a TGT JWT carries sub, jti, iss, aud, iat, exp = iat + hard limit and the attributes; no request parameter, credentials least of all', async () => {
    const { tokens, codec, tgt, clock } = await setup();
    const cert = '-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----';
    const forged = { username: 'casuser', password: 'Mellon', otp: '123456', cert, token: 'true', service: APP, memberOf: 'admins', sub: 'root', exp: '1', nbf: '99999999999' };
    const token = await tokens.ticketGrantingTicket(tgt, ISSUER, forged);
    const iat = Math.floor(clock.now() / 1000);
    expect(await codec.decode(token)).to.deep.equal({
      sub: 'casuser',
      jti: tgt.id,
      iss: ISSUER,
      aud: ISSUER,
      iat,
      exp: iat + 8 * 3600,
      memberOf: ['staff', 'faculty'],
      mail: 'casuser@example.org',
    });
  });

  it('copies only the configured parameters, when sent, into the one claim requestParameters, which shadows no attribute or registered claim', async () => {
    const { codec, tgt, clock, core } = await setup();
    const tokens = new JwtTickets(codec, clock, core.relyingParties.release, undefined, ['deviceId', 'exp', 'absent']);
    const claims = await codec.decode(await tokens.ticketGrantingTicket(tgt, ISSUER, { deviceId: 'laptop-7', exp: '1', memberOf: 'admins' }));
    expect(claims[REQUEST_PARAMETERS_CLAIM]).to.deep.equal({ deviceId: 'laptop-7', exp: '1' });
    expect(claims).to.include({ sub: 'casuser', exp: Math.floor(clock.now() / 1000) + 8 * 3600 });
    expect(claims['memberOf']).to.deep.equal(['staff', 'faculty']);

    const namedLikeTheClaim = { ...tgt, authentication: { ...tgt.authentication, principal: { id: 'casuser', attributes: { [REQUEST_PARAMETERS_CLAIM]: ['from the directory'] } } } };
    const shadowed = await codec.decode(await tokens.ticketGrantingTicket(namedLikeTheClaim, ISSUER, { deviceId: 'laptop-7' }));
    expect(shadowed[REQUEST_PARAMETERS_CLAIM]).to.equal('from the directory');
  });

  it('a JWT ST carries the ST id, the service as aud, the ST lifetime and the released attributes', async () => {
    const { core, tokens, codec, tgt, clock } = await setup();
    const granted = await core.grantServiceTicket.execute({ tgtId: tgt.id, service: APP, renew: false, credentials: [] });
    expect(tokens.wantsJwtServiceTicket(granted.service)).to.be.true;
    const claims = await codec.decode(await tokens.serviceTicket(granted, ISSUER), { audience: APP });
    const iat = Math.floor(clock.now() / 1000);
    expect(claims).to.deep.equal({ sub: 'casuser', jti: granted.ticket.id, iss: ISSUER, aud: APP, iat, exp: iat + 10, memberOf: ['staff', 'faculty'], mail: 'casuser@example.org' });
  });

  it('only services with jwtAsServiceTicket = true get JWT STs', () => {
    const tokens = new JwtTickets({ encode: () => Promise.reject(new Error('unused')), decode: () => Promise.reject(new Error('unused')) }, { now: () => 0 }, () => Promise.reject(new Error('unused')), undefined);
    expect(tokens.wantsJwtServiceTicket(service({ properties: { jwtAsServiceTicket: ['TRUE'] } }))).to.be.true;
    expect(tokens.wantsJwtServiceTicket(service({ properties: { jwtAsServiceTicket: ['false'] } }))).to.be.false;
    expect(tokens.wantsJwtServiceTicket(service())).to.be.false;
  });

  it('a verified JWT stands for its jti; ids and bad tokens stay as they are', async () => {
    const { tokens, tgt } = await setup();
    const token = await tokens.ticketGrantingTicket(tgt, ISSUER, {});
    expect(await tokens.ticketId(token)).to.equal(tgt.id);
    expect(await tokens.ticketId(tgt.id)).to.equal(tgt.id);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.ticketId(tampered)).to.equal(tampered);
  });
});
