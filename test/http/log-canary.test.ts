import { expect } from 'chai';
import { findLeaks, type Source } from '../support/log-canary.js';

const TGT = 'TGT-7-kp4PgmJLlydOPR2HMTZClmwQZ6xegOGM4obGx-zt7Ig-e2e';
const source = (...lines: string[]): Source => ({ name: 'log under test', lines: () => lines });
const found = (lines: string[], secrets: Record<string, string> = {}) => findLeaks([source(...lines)], new Map(Object.entries(secrets))).map((leak) => leak.what);

// The final check of the run can only guard if its search finds what a leak looks like.
describe('the log canary finds', () => {
  it('a password, an OTP code or an Authorization value standing alone, in a JSON string or a form', () => {
    const secrets = { Mellon: 'a password', '492039': 'an OTP code', 'Basic Y2FzdXNlcjpNZWxsb24=': 'an Authorization value' };
    expect(found(['{"msg":"login of casuser with Mellon"}'], secrets)).to.deep.equal(['a password']);
    expect(found(['{"body":"username=casuser&otp=492039"}'], secrets)).to.deep.equal(['an OTP code']);
    expect(found(['{"headers":{"authorization":"Basic Y2FzdXNlcjpNZWxsb24="}}'], secrets)).to.deep.equal(['an Authorization value']);
  });

  it('the bytes of a connection serialized as a Buffer, as an error’s rawPacket was', () => {
    const rawPacket = JSON.stringify({ type: 'Buffer', data: [...Buffer.from('POST /cas/v1/tickets HTTP/1.1\r\n\r\nusername=casuser&password=Mellon')] });
    expect(found([`{"err":{"code":"HPE_INVALID_HEADER_TOKEN","rawPacket":${rawPacket}}}`], { Mellon: 'a password' })).to.deep.equal(['a password']);
  });

  it('any whole ticket id or JWT, remembered or not, but not a fingerprint', () => {
    expect(found([`{"url":"/cas/v1/tickets/${TGT}"}`])).to.deep.equal(['a whole ticket id']);
    expect(found(['{"token":"eyJhbGciOiJIUzUxMiJ9.eyJzdWIiOiJjYXN1c2VyIn0.c2ln"}'])).to.deep.equal(['a JWT']);
    expect(found(['{"ticket":"TGT-7#0c877c14bdc6"}'])).to.deep.equal([]);
  });

  it('nothing where a secret is only part of a longer word or number', () => {
    const secrets = { secret: 'a password', '492039': 'an OTP code' };
    expect(found(['{"msg":"users[0].otpSecret is set","requestId":"a1492039b-4","pid":14920390}'], secrets)).to.deep.equal([]);
  });
});
