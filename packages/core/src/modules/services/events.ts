/** Why a service registration was refused. */
export type ServiceRefusalReason =
  /** The form variant's TGT is unknown or expired (404). */
  | 'TGT_NOT_FOUND'
  /** The principal lacks `registration.requiredAttribute` (403). */
  | 'MISSING_REQUIRED_ATTRIBUTE'
  /** The definition is invalid (400); the event names the field. */
  | 'INVALID_SERVICE_DEFINITION';

/** A service registration refused once its caller was identified (by credentials or a TGT). */
export type ServiceRefusedEvent = {
  readonly type: 'service.refused';
  readonly reason: ServiceRefusalReason;
  /** Who tried; absent for an unknown TGT. */
  readonly principal?: string;
  /** The form variant: the fingerprint of the TGT presented. */
  readonly tgt?: string;
  /** INVALID_SERVICE_DEFINITION: the field at fault, as the answer names it. */
  readonly field?: string;
};
