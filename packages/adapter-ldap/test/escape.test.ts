import { expect } from 'chai';
import { escapeDnValue, escapeFilterValue, fillTemplate } from '../src/index.js';

describe('LDAP escaping', () => {
  describe('filter values (RFC 4515 §3)', () => {
    it('turns every filter metacharacter into its hex escape, so input matches only literally', () => {
      expect(escapeFilterValue('*')).to.equal('\\2a');
      expect(escapeFilterValue(')(uid=*')).to.equal('\\29\\28uid=\\2a');
      expect(escapeFilterValue('casuser)(|(uid=*')).to.equal('casuser\\29\\28|\\28uid=\\2a');
      expect(escapeFilterValue('back\\slash')).to.equal('back\\5cslash');
      expect(escapeFilterValue('nul\0byte')).to.equal('nul\\00byte');
    });

    it('leaves ordinary names, including non-ASCII ones, as they are', () => {
      expect(escapeFilterValue('casuser')).to.equal('casuser');
      expect(escapeFilterValue('jürgen.o-brien')).to.equal('jürgen.o-brien');
    });
  });

  describe('DN attribute values (RFC 4514 §2.4)', () => {
    it('escapes the characters that would end or extend an RDN', () => {
      expect(escapeDnValue('a,b')).to.equal('a\\,b');
      expect(escapeDnValue('x+cn=admin')).to.equal('x\\+cn\\=admin');
      expect(escapeDnValue('q"<>;\\')).to.equal('q\\"\\<\\>\\;\\\\');
      expect(escapeDnValue('nul\0')).to.equal('nul\\00');
    });

    it('escapes a leading space or #, and a trailing space', () => {
      expect(escapeDnValue('#admin')).to.equal('\\#admin');
      expect(escapeDnValue(' admin ')).to.equal('\\ admin\\ ');
      expect(escapeDnValue('in # side')).to.equal('in # side');
    });
  });

  it('fills every {user} of a template with the escaped value, and nothing else', () => {
    expect(fillTemplate('(|(uid={user})(mail={user}))', 'a*', escapeFilterValue)).to.equal('(|(uid=a\\2a)(mail=a\\2a))');
    expect(fillTemplate('uid={user},ou=people', '$&', escapeDnValue)).to.equal('uid=$&,ou=people');
  });
});
