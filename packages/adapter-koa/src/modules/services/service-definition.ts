import { z } from 'zod';

const javaClass = (what: string) => z.string().optional().meta({ description: `Java class name of the ${what}, as Apereo CAS writes it.` });
const valueLists = (what: string) =>
  z.record(z.string(), z.unknown()).meta({ description: `${what} by name: a list of strings, plain or as Apereo writes it, \`["java.util.HashSet", [values]]\`.` });

/**
 * A service definition in Apereo CAS's JSON format, as POST /v1/services takes and answers it. The
 * route hands the body whole to the CAS JSON codec (codecs/cas-service-json.ts, which also reads
 * service files and configuration, and whose errors name the field); this schema describes what that
 * parser accepts: CAS's keys, and `moduleKeys`, those the modules' service types and sections read
 * (the codec's `moduleKeys`), each optional, as each is read only with its class or when written.
 */
export function serviceDefinitionSchema(moduleKeys: Readonly<Record<string, z.ZodType>>) {
  return z
    .looseObject({
      '@class': z.string().optional().meta({ description: 'One of `registration.acceptedTypes`; `org.apereo.cas.services.CasRegisteredService` when absent.' }),
      id: z.int().min(0).optional().meta({ description: 'Replaces the stored service of this id; a new id is assigned when absent.' }),
      serviceId: z.string().meta({ description: 'A regular expression matched, case-insensitively, against the whole service URL.' }),
      name: z.string().max(255),
      description: z.string().max(255).nullable().optional(),
      evaluationOrder: z.int().optional().meta({ description: 'Lower values are matched first; default 0.' }),
      accessStrategy: z
        .looseObject({
          '@class': javaClass('strategy (DefaultRegisteredServiceAccessStrategy, TimeBasedRegisteredServiceAccessStrategy or HttpRequestRegisteredServiceAccessStrategy)'),
          enabled: z.boolean().optional().meta({ description: 'Default true; a disabled service behaves as unregistered.' }),
          ssoEnabled: z.boolean().optional().meta({ description: 'Default true; false makes every ST need `renew` with credentials.' }),
          requiredAttributes: valueLists('Accepted values of principal attributes').optional(),
        })
        .nullable()
        .optional(),
      attributeReleasePolicy: z
        .looseObject({
          '@class': z.string().meta({
            description:
              'Java class name of the policy, as Apereo CAS writes it: ReturnAllAttributeReleasePolicy, ReturnAllowedAttributeReleasePolicy, ReturnMappedAttributeReleasePolicy, DenyAllAttributeReleasePolicy or ChainingAttributeReleasePolicy (org.apereo.cas.services; docs/services.md lists the keys of each), or one a module registers.',
          }),
          allowedAttributes: z.unknown().optional().meta({
            description: 'With ReturnAllowedAttributeReleasePolicy: the attribute names released; with ReturnMappedAttributeReleasePolicy: each attribute released and the name (or names) it is released under.',
          }),
        })
        .nullable()
        .optional(),
      properties: valueLists('Service properties (e.g. `jwtAsServiceTicket`)').nullable().optional(),
      logoutType: z
        .enum(['NONE', 'BACK_CHANNEL', 'FRONT_CHANNEL'])
        .nullable()
        .optional()
        .meta({ description: '`BACK_CHANNEL` opts in to single logout (login module): the service gets a logout request when a login session it took part in ends. `FRONT_CHANNEL`: the user\'s browser brings it the request from the logout page. Absent or `NONE`: never.' }),
      logoutUrl: z
        .url()
        .nullable()
        .optional()
        .meta({ description: 'Where the back-channel logout request goes; absent, the service URL the ticket was issued for.' }),
      ...Object.fromEntries(Object.entries(moduleKeys).map(([key, schema]) => [key, schema.optional()])),
    })
    .meta({
      id: 'CasServiceDefinition',
      description:
        'An Apereo CAS service definition (JSON). Apereo service files load unchanged. Any other key is refused (400, naming it), ' +
        "except CAS's descriptive ones (theme, logo, informationUrl, …) and CAS keys whose value asks for what tessera does anyway.",
    });
}
