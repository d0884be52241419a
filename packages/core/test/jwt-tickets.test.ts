import { expect } from 'chai';
import { CasJwtCodec, JwtTickets, generateTokenKeys, cryptoRandomSource } from '@tessera/core';
import { password, service } from './fakes.js';
import { APP, coreWithFakes } from './harness.js';

const ISSUER = 'https://cas.example.org/cas';

async function setup() {
  const harness = coreWithFakes([service({ properties: { jwtAsServiceTicket: ['true'] } })]);
  const codec = new CasJwtCodec({ ...generateTokenKeys('A128CBC-HS256', cryptoRandomSource), encryptionAlgorithm: 'A128CBC-HS256' }, harness.clock);
  const tokens = new JwtTickets(codec, harness.clock, undefined);
  const tgt = await harness.core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] });
  return { ...harness, codec, tokens, tgt };
}

describe('JWT tickets: claims and ids (docs/protocol.md §6)', () => {
  it('a TGT JWT carries sub, jti, iss, aud, iat, exp = iat + hard limit, attributes and extra parameters, never the credentials', async () => {
    const { tokens, codec, tgt, clock } = await setup();
    const cert = '-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----';
    const token = await tokens.ticketGrantingTicket(tgt, ISSUER, { username: 'casuser', password: 'Mellon', cert, token: 'true', service: APP, extra: 'x' });
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
      service: APP,
      extra: 'x',
    });
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
    const tokens = new JwtTickets({ encode: () => Promise.reject(new Error('unused')), decode: () => Promise.reject(new Error('unused')) }, { now: () => 0 }, undefined);
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
