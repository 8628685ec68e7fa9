/** What the institution and cohort use cases return (the API's response bodies; see shared/results.ts). */
import type { Settings } from "../constants.js";
import type { Timestamp } from "../results.js";
import type { Role } from "../roles.js";

export interface InstitutionView {
  id: string;
  name: string;
  registration_number: string | null;
  address: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  settings: Settings;
  account_id: string;
  super_admin_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InstitutionListItem {
  id: string;
  name: string;
  registration_number: string | null;
  contact_email: string | null;
  role: Role;
  is_super_admin: boolean;
  created_at: Timestamp;
}

export interface InstitutionList {
  institutions: InstitutionListItem[];
}

export interface InstitutionShown {
  institution: InstitutionView;
  role: Role;
  is_super_admin: boolean;
  settings: Required<Settings>;
}

export interface InstitutionWritten {
  institution: InstitutionView;
  message: string;
}

export interface CohortView {
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface CohortList {
  cohorts: CohortView[];
}

export interface CohortCreated {
  cohort: CohortView;
}
