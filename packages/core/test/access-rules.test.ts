import { expect } from 'chai';
import { activates, clientMatches, principalMeetsRequirements, strategyAllows, windowInstant, withinWindow, type AccessStrategy, type RegisteredService } from '../src/index.js';

const OPEN: AccessStrategy = { enabled: true, ssoEnabled: true, requiredAttributes: {} };

describe('access rules before any user is known (CAS isServiceAccessAllowed)', () => {
  it('reads a window date-time as CAS does: with an offset it is that instant; without one, local to zoneId (UTC by default); a date is its first instant', () => {
    expect(windowInstant('2015-11-01T13:19:54.132-07:00', 'Europe/Paris')).to.equal(Date.parse('2015-11-01T20:19:54.132Z'));
    expect(windowInstant('2015-11-01T13:19:54.132456789-07:00[America/Los_Angeles]', undefined)).to.equal(Date.parse('2015-11-01T20:19:54.132Z'));
    expect(windowInstant('2030-01-31T09:00:00', undefined)).to.equal(Date.parse('2030-01-31T09:00:00Z'));
    expect(windowInstant('2030-01-31T09:00', 'Europe/Paris')).to.equal(Date.parse('2030-01-31T08:00:00Z'));
    expect(windowInstant('2030-07-31T09:00:00', 'Europe/Paris')).to.equal(Date.parse('2030-07-31T07:00:00Z'));
    expect(windowInstant('2030-01-31', 'America/New_York')).to.equal(Date.parse('2030-01-31T05:00:00Z'));
    expect(windowInstant('2030-01-31T09:00:00', '+05:30')).to.equal(Date.parse('2030-01-31T03:30:00Z'));
    expect(windowInstant('2030-01-31T09:00:00', 'UTC-3')).to.equal(Date.parse('2030-01-31T12:00:00Z'));
    for (const unreadable of ['10/11/2015', '2030-02-30', '2030-01-31T25:00:00', 'tomorrow']) expect(windowInstant(unreadable, undefined), unreadable).to.be.NaN;
    expect(windowInstant('2030-01-31T09:00:00', 'Mars/Olympus')).to.be.NaN;
  });

  it('a window refuses before its start and after its end, and serves at both ends and with an open end', () => {
    const window = { startingDateTime: '2030-01-31T09:00:00', endingDateTime: '2030-01-31T17:00:00', zoneId: 'Europe/Paris' };
    expect(withinWindow(window, Date.parse('2030-01-31T07:59:59Z'))).to.equal(false);
    expect(withinWindow(window, Date.parse('2030-01-31T08:00:00Z'))).to.equal(true);
    expect(withinWindow(window, Date.parse('2030-01-31T16:00:00Z'))).to.equal(true);
    expect(withinWindow(window, Date.parse('2030-01-31T16:00:00.001Z'))).to.equal(false);
    expect(withinWindow({ endingDateTime: '2030-01-31' }, Date.parse('1999-01-01T00:00:00Z'))).to.equal(true);
  });

  it('request rules are found anywhere in their value, case ignored; a value the request lacks matches none', () => {
    expect(clientMatches({ ipAddress: '^192\\.168\\.' }, { address: '::ffff:192.168.1.7' })).to.equal(true);
    expect(clientMatches({ ipAddress: '^192\\.168\\.' }, { address: '10.0.0.1' })).to.equal(false);
    expect(clientMatches({ userAgent: 'firefox' }, { address: '10.0.0.1', userAgent: 'Mozilla/5.0 Firefox/128.0' })).to.equal(true);
    expect(clientMatches({ userAgent: 'firefox' }, { address: '10.0.0.1' })).to.equal(false);
    expect(clientMatches({}, {})).to.equal(true);
  });

  it('a strategy allows only when enabled, within its window given the time, and for a matching client given one', () => {
    const now = Date.parse('2030-06-01T00:00:00Z');
    expect(strategyAllows({ ...OPEN, enabled: false })).to.equal(false);
    expect(strategyAllows({ ...OPEN, window: { endingDateTime: '2030-01-01' } }, { now })).to.equal(false);
    expect(strategyAllows({ ...OPEN, window: { endingDateTime: '2030-01-01' } })).to.equal(true);
    expect(strategyAllows({ ...OPEN, request: { ipAddress: '^10\\.' } }, { now, client: { address: '127.0.0.1' } })).to.equal(false);
    expect(strategyAllows({ ...OPEN, request: { ipAddress: '^10\\.' } }, { now, client: { address: '10.1.2.3' } })).to.equal(true);
  });

  it('activation criteria switch the attribute rules on for the principals they name; the others are allowed or refused as allowIfInactive says', () => {
    const faculty = { requiredAttributes: { memberOf: ['FACULTY', 'deans'] }, operator: 'AND' as const, allowIfInactive: true };
    expect(activates(faculty, { memberOf: ['staff', 'faculty'] })).to.equal(true);
    expect(activates(faculty, { memberOf: ['students'] })).to.equal(false);
    expect(activates({ ...faculty, requiredAttributes: { memberOf: ['faculty'], mail: ['@elsewhere'] } }, { memberOf: ['faculty'] })).to.equal(false);
    expect(activates({ ...faculty, operator: 'OR', requiredAttributes: { memberOf: ['faculty'], mail: ['@elsewhere'] } }, { memberOf: ['faculty'] })).to.equal(true);
    const studentsOnly = (activation: typeof faculty) =>
      ({ accessStrategy: { ...OPEN, requiredAttributes: { memberOf: ['students'] }, activation } }) as unknown as RegisteredService;
    const principal = (memberOf: string[]) => ({ id: 'someone', attributes: { memberOf } });
    expect(principalMeetsRequirements(studentsOnly(faculty), principal(['faculty']))).to.equal(false);
    expect(principalMeetsRequirements(studentsOnly(faculty), principal(['staff']))).to.equal(true);
    expect(principalMeetsRequirements(studentsOnly({ ...faculty, allowIfInactive: false }), principal(['staff']))).to.equal(false);
  });

  it('a pattern keeps its answers check after check, whichever rule, definition or case setting uses the same source', () => {
    const staff = (caseInsensitive: boolean, memberOf = ['Staff']) =>
      ({ accessStrategy: { ...OPEN, requiredAttributes: { memberOf }, ...(caseInsensitive && { caseInsensitive }) } }) as unknown as RegisteredService;
    const principal = { id: 'someone', attributes: { memberOf: ['staff'] } };
    for (let check = 0; check < 3; check += 1) {
      // The same source as a request rule, an activation criterion and an accepted value, with and without case.
      expect(clientMatches({ userAgent: 'Staff' }, { userAgent: 'the staff browser' }), `check ${check}`).to.equal(true);
      expect(activates({ requiredAttributes: { memberOf: ['Staff'] }, operator: 'AND', allowIfInactive: false }, principal.attributes)).to.equal(true);
      expect(principalMeetsRequirements(staff(true), principal)).to.equal(true);
      expect(principalMeetsRequirements(staff(false), principal)).to.equal(false);
      // A request rule is found anywhere; the same source as an accepted value must match the whole value.
      expect(clientMatches({ userAgent: 'url' }, { userAgent: 'curl/8' })).to.equal(true);
      expect(principalMeetsRequirements(staff(true, ['url']), { id: 'someone', attributes: { memberOf: ['curl'] } })).to.equal(false);
      // No regular expression: a request rule matches nothing, an activation value only itself, an accepted value only itself.
      expect(clientMatches({ userAgent: '(' }, { userAgent: '(' })).to.equal(false);
      expect(activates({ requiredAttributes: { memberOf: ['('] }, operator: 'AND', allowIfInactive: false }, { memberOf: ['('] })).to.equal(true);
      expect(activates({ requiredAttributes: { memberOf: ['('] }, operator: 'AND', allowIfInactive: false }, { memberOf: ['(x'] })).to.equal(false);
      expect(principalMeetsRequirements(staff(false, ['(']), { id: 'someone', attributes: { memberOf: ['('] } })).to.equal(true);
    }
  });
});
