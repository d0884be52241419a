/** The throwaway directory every LDAP test logs in against (dc=example,dc=org). */
const SUFFIX = 'dc=example,dc=org';
export const ADMIN_DN = `cn=admin,${SUFFIX}`;
export const ADMIN_PASSWORD = 'admin-secret';
export const READER_DN = `cn=reader,${SUFFIX}`;
export const READER_PASSWORD = 'reader-secret';
export const PEOPLE = `ou=people,${SUFFIX}`;

/** Users: casuser (two mail values, two employeeType values), alice, a uid with a comma, a locked account. */
export const SEED_LDIF = `dn: ${SUFFIX}
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: ${READER_DN}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: reader
userPassword: ${READER_PASSWORD}

dn: ${PEOPLE}
objectClass: organizationalUnit
ou: people

dn: ou=groups,${SUFFIX}
objectClass: organizationalUnit
ou: groups

dn: uid=casuser,${PEOPLE}
objectClass: inetOrgPerson
uid: casuser
cn: CAS User
sn: User
mail: casuser@example.org
mail: cas.user@example.org
employeeType: staff
employeeType: faculty
employeeNumber: E-1001
userPassword: Mellon

dn: uid=alice,${PEOPLE}
objectClass: inetOrgPerson
uid: alice
cn: Alice
sn: Liddell
mail: alice@example.org
userPassword: secret

dn: uid=comma\\,user,${PEOPLE}
objectClass: inetOrgPerson
uid: comma,user
cn: Comma User
sn: Comma
userPassword: comma-secret

dn: uid=locked,${PEOPLE}
objectClass: inetOrgPerson
uid: locked
cn: Locked
sn: Out
userPassword: locked-secret
pwdAccountLockedTime: 000001010000Z

dn: cn=staff,ou=groups,${SUFFIX}
objectClass: groupOfNames
cn: staff
member: uid=casuser,${PEOPLE}
member: uid=alice,${PEOPLE}
`;

/** slapd.conf: mdb in \`dir\`, the ppolicy overlay (for pwdAccountLockedTime), passwords only for binds. */
export function slapdConfig(dir: string): string {
  return `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload ppolicy
pidfile ${dir}/slapd.pid
database mdb
suffix "${SUFFIX}"
rootdn "${ADMIN_DN}"
rootpw ${ADMIN_PASSWORD}
directory ${dir}/data
overlay ppolicy
access to attrs=userPassword by self read by anonymous auth by * none
access to * by * read
`;
}
