import { isClass } from './cas-service-keys.js';

/**
 * Apereo release policy classes whose release is decided by a program of the site's own, which
 * tessera does not run: a Groovy script, or an endpoint asked at every release. Their refusal says
 * so, and that the release is to be written with a class tessera reads.
 */
const REFUSED_RELEASE_POLICY_CLASSES: Readonly<Record<string, string>> = {
  GroovyScriptAttributeReleasePolicy: 'a Groovy script cannot run in tessera',
  ScriptedRegisteredServiceAttributeReleasePolicy: 'a Groovy script cannot run in tessera',
  ReturnRestfulAttributeReleasePolicy: "tessera asks no site's endpoint what to release: its release is written in the definition",
};

/** Why a release policy class is refused, to come before the classes to write instead (`…; write it as A, B or C`); undefined for any other class. */
export function refusedReleasePolicyClass(written: unknown): string | undefined {
  const name = Object.keys(REFUSED_RELEASE_POLICY_CLASSES).find((simple) => isClass(written, simple));
  return name === undefined ? undefined : `${REFUSED_RELEASE_POLICY_CLASSES[name]}; write the attributes it releases as`;
}
