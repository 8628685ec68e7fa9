/**
 * Examples of the API document: responses of a real run against the local stack (`npm start`), with the
 * test run's unique suffixes taken out of e-mails and the account. No token appears: invitation tokens
 * only as their 8-character preview. `test/integration/openapi.test.ts` validates each against its schema.
 */
import { COUNTED_TYPES } from "../constants.js";

/** The alerts' per-minute series of the example's hour: one minute with each counted type, the rest zero. */
function series(from: string): Record<string, string | number>[] {
  const start = Math.floor(Date.parse(from) / 60_000) * 60_000;
  return Array.from({ length: 60 }, (_, i) => {
    const minute = new Date(start + (i + 1) * 60_000).toISOString();
    return { minute, ...Object.fromEntries(COUNTED_TYPES.map((t) => [t, i === 58 ? 1 : 0])) };
  });
}

export const examples = {
  institutionList: {
    institutions: [
      {
        id: "01M84M2ES7DTY37NE05PPBJBQG",
        name: "Acme College",
        registration_number: "AC-1",
        contact_email: "desk@acme.test",
        role: "cohort_super_admin",
        is_super_admin: true,
        created_at: "2026-11-23T16:33:19.655Z",
      },
    ],
  },
  institutionShown: {
    institution: {
      id: "01M84M2ES7DTY37NE05PPBJBQG",
      name: "Acme College",
      registration_number: "AC-1",
      address: "1 Main St",
      contact_email: "desk@acme.test",
      contact_phone: "+1 555 0100",
      settings: { auto_finalize: true },
      account_id: "acme",
      super_admin_id: "b225f876-4988-446b-bd3c-7c506f33d77c",
      created_at: "2026-11-23T16:33:19.655Z",
      updated_at: "2026-11-23T16:33:19.655Z",
    },
    role: "cohort_super_admin",
    is_super_admin: true,
    settings: { allow_student_enrollment: true, require_verification: true, auto_finalize: true, email_notifications: true },
  },
  institutionCreated: {
    institution: {
      id: "01M84M2ES7DTY37NE05PPBJBQG",
      name: "Acme College",
      registration_number: "AC-1",
      address: "1 Main St",
      contact_email: "desk@acme.test",
      contact_phone: "+1 555 0100",
      settings: { auto_finalize: true },
      account_id: "acme",
      super_admin_id: "b225f876-4988-446b-bd3c-7c506f33d77c",
      created_at: "2026-11-23T16:33:19.655Z",
      updated_at: "2026-11-23T16:33:19.655Z",
    },
    message: "Institution created successfully",
  },
  institutionUpdated: {
    institution: {
      id: "01M84M2ES7DTY37NE05PPBJBQG",
      name: "Acme College",
      registration_number: "AC-1",
      address: "2 Main St",
      contact_email: "desk@acme.test",
      contact_phone: "+1 555 0100",
      settings: { auto_finalize: true },
      account_id: "acme",
      super_admin_id: "b225f876-4988-446b-bd3c-7c506f33d77c",
      created_at: "2026-11-23T16:33:19.655Z",
      updated_at: "2026-11-23T16:33:22.112Z",
    },
    message: "Institution updated successfully",
  },
  institutionTransferred: {
    institution: {
      id: "01M84M2ES7DTY37NE05PPBJBQG",
      name: "Acme College",
      registration_number: "AC-1",
      address: "2 Main St",
      contact_email: "desk@acme.test",
      contact_phone: "+1 555 0100",
      settings: { auto_finalize: true },
      account_id: "acme",
      super_admin_id: "3c9a5e1d-7b42-4f0e-9a61-2d8b7c4e5f10",
      created_at: "2026-11-23T16:33:19.655Z",
      updated_at: "2026-11-23T16:41:07.930Z",
    },
    message: "Institution transferred to ada@acme.test",
  },
  institutionDeleted: { message: "Institution 'Beta Institute' deleted successfully" },
  cohortList: { cohorts: [{ id: "01M84M2HAMHH0EA3AKCTQAJP1B", name: "2026", created_at: "2026-11-23T16:33:22.260Z" }] },
  cohortCreated: { cohort: { id: "01M84M2HAMHH0EA3AKCTQAJP1B", name: "2026", created_at: "2026-11-23T16:33:22.260Z" } },
  invitationList: {
    invitations: [
      {
        id: "01M84M2KAZP8VD5B0EW6YAWVH4",
        email: "ada@acme.test",
        role: "cohort_admin",
        token_preview: "MuxqSrod...",
        sent_at: "2026-11-23T16:33:24.319Z",
        expires_at: "2026-11-30T16:33:24.319Z",
        used_at: null,
        created_by: "olive@acme.test",
        status: "active",
      },
      {
        id: "01M84M2K5MBZXTFR4XDKR8WZ9A",
        email: "ada@acme.test",
        role: "cohort_admin",
        token_preview: "P5gLlt77...",
        sent_at: "2026-11-23T16:33:24.148Z",
        expires_at: "2026-11-30T16:33:24.148Z",
        used_at: null,
        created_by: "olive@acme.test",
        status: "active",
      },
    ],
    meta: { count: 2, limit: 50, next_cursor: null },
  },
  invitationCreated: {
    invitation: {
      id: "01M84M2JRR02A4753J81QXQWGQ",
      email: "ada@acme.test",
      role: "cohort_admin",
      token_preview: "IUEGYARY...",
      expires_at: "2026-11-30T16:33:23.736Z",
    },
    message: "Invitation sent to ada@acme.test",
  },
  invitationRevoked: { message: "Invitation revoked" },
  invitationResent: {
    invitation: {
      id: "01M84M2JRR02A4753J81QXQWGQ",
      email: "ada@acme.test",
      role: "cohort_admin",
      token_preview: "65UByWi9...",
      expires_at: "2026-11-30T16:33:24.707Z",
      sent_at: "2026-11-23T16:33:24.707Z",
    },
    message: "Invitation resent to ada@acme.test",
  },
  invitationAccepted: {
    institution: { id: "01M84M2ES7DTY37NE05PPBJBQG", name: "Acme College" },
    role: "cohort_admin",
    message: "Invitation accepted",
  },
  invitationOpened: {
    institution: { name: "Acme College" },
    role: "cohort_admin",
    invited_by: { email: "olive@acme.test", name: "Olive Owner" },
    expires_at: "2026-11-30T16:33:21.118Z",
    email: "ada@acme.test",
    has_account: false,
  },
  invitationRegistered: {
    institution: { id: "01M84M2ES7DTY37NE05PPBJBQG", name: "Acme College" },
    role: "cohort_admin",
    message: "Account created",
  },
  cohortDeleted: { message: "Cohort '2026' deleted" },
  invitationPreview: {
    institution: { name: "Acme College" },
    role: "cohort_admin",
    invited_by: { email: "olive@acme.test", name: "Olive Owner" },
    expires_at: "2026-11-30T16:33:21.118Z",
  },
  administratorList: {
    administrators: [
      {
        user_id: "3c9a5e1d-7b42-4f0e-9a61-2d8b7c4e5f10",
        email: "ada@acme.test",
        name: "Ada Admin",
        account_id: "acme",
        role: "cohort_admin",
        is_super_admin: false,
        added_at: "2026-11-23T16:40:02.514Z",
        invitation_id: "01M84M2G0ZJ5WQ6B3X8T4RY2KD",
        managed_by: null,
      },
      {
        user_id: "8f3b2c1a-4d5e-4f60-9a7b-1c2d3e4f5a6b",
        email: "olive@acme.test",
        name: "Olive Owner",
        account_id: "acme",
        role: "cohort_super_admin",
        is_super_admin: true,
        added_at: "2026-11-23T16:33:19.655Z",
        invitation_id: null,
        managed_by: null,
      },
    ],
    meta: { count: 2, limit: 50, next_cursor: null },
  },
  administratorUpdated: {
    administrator: {
      user_id: "3c9a5e1d-7b42-4f0e-9a61-2d8b7c4e5f10",
      email: "ada@acme.test",
      name: "Ada Admin",
      account_id: "acme",
      role: "cohort_super_admin",
      is_super_admin: false,
      added_at: "2026-11-23T16:40:02.514Z",
      invitation_id: "01M84M2G0ZJ5WQ6B3X8T4RY2KD",
      managed_by: null,
    },
    message: "Role updated",
  },
  administratorRemoved: { message: "Administrator removed", revoked_invitations: 1 },
  apiKeyCreated: {
    api_key: {
      id: "01M84M9Q3W6ZK1R2TXY5B8C0DE",
      name: "SIS sync",
      scopes: ["cohorts:write", "invitations:write"],
      key_preview: "iak_8sKq...",
      created_at: "2026-11-23T16:41:10.208Z",
      created_by: "owner@acme.test",
      expires_at: "2027-06-30T00:00:00.000Z",
      last_used_at: null,
    },
    key: "iak_8sKqP2vN0xT5mYb7cR1wZ4hL9dF3gJ6aE0uQ_iVo-Xs",
  },
  scimConnectionIssued: {
    scim: {
      base_url: "https://admin.acme.test/api/scim/v2",
      token: "scim_Jx4vQ0b8m1Zr5tYk2PqW9sLc7HdE3fGa6NuV0iXoB_A",
      token_preview: "scim_Jx4vQ0b...",
      created_at: "2026-11-23T16:40:02.514Z",
      rotated_at: null,
    },
  },
  scimConnection: {
    scim: {
      base_url: "https://admin.acme.test/api/scim/v2",
      token_preview: "scim_Jx4vQ0b...",
      created_at: "2026-11-23T16:40:02.514Z",
      rotated_at: null,
      last_used_at: "2026-11-24T09:12:44.031Z",
      role_mappings: { "Campus admins": "cohort_super_admin", Staff: "cohort_admin" },
    },
  },
  securityEventList: {
    events: [
      {
        user_email: "ada@acme.test",
        event_type: "invitation_accepted",
        created_at: "2026-11-23T16:33:26.511Z",
        description: "ada@acme.test accepted an invitation as cohort_admin",
        details: {
          invitation_id: "01M84M2JRR02A4753J81QXQWGQ",
          role: "cohort_admin",
          email: "ada@acme.test",
          institution_id: "01M84M2ES7DTY37NE05PPBJBQG",
        },
        id: "01M84M2NFFBM80AC7DEF0GZDHA",
        ip_address: "127.0.0.1",
      },
      {
        user_email: "ada@acme.test",
        event_type: "token_validation_failure",
        created_at: "2026-11-23T16:33:25.919Z",
        description: "ada@acme.test presented an invalid invitation token (unknown)",
        details: { reason: "unknown" },
        id: "01M84M2MWZPPRWS11BK2CV8M6Q",
        ip_address: "127.0.0.1",
      },
      {
        user_email: "olive@acme.test",
        event_type: "invitation_revoked",
        created_at: "2026-11-23T16:33:25.203Z",
        description: "olive@acme.test revoked the invitation for bob@acme.test",
        details: { invitation_id: "01M84M2KXSK6XPCPBTTV3Y8DA6", email: "bob@acme.test", institution_id: "01M84M2ES7DTY37NE05PPBJBQG" },
        id: "01M84M2M6KA0K6BSHFHNARDVE6",
        ip_address: "127.0.0.1",
      },
    ],
    meta: { count: 3, limit: 3, next_cursor: "MjAyNi0xMS0yM1QxNjozMzoyNS4yMDNaIzAxTTg0TTJNNktBMEs2QlNIRkhOQVJEVkU2" },
  },
  securityEventDigests: {
    digests: [
      {
        account_id: "acme",
        sequence: 1,
        period_start: "2026-11-23T16:00:00.000Z",
        period_end: "2026-11-23T17:00:00.000Z",
        event_count: 1,
        events_hash: "3f1d4b1e2f8c36d0b6b5a5e7a0c6a4f1a2b3c4d5e6f708192a3b4c5d6e7f8091",
        previous_digest_hash: null,
        created_at: "2026-11-23T17:05:00.412Z",
        key_id: "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
        signature: "MEUCIQDl4Yk8y8w3pFj6b5YVb0E9i0z2o3m4n5b6v7c8x9z0aQIgV8cV7b6n5m4l3k2j1h0g9f8d7s6a5p4o3i2u1y0t9r8=",
      },
    ],
    public_key:
      "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEm7cX0c1ZP1xj5qk2yQ8u2Kz0mHqf3Q1vJp5m6Y3t5u0oN2JrGm2f9Q8s0T1b3u4v5w6x7y8z9A0B1C2D3E4F5G==\n-----END PUBLIC KEY-----\n",
  },
  securityEvent: {
    id: "01M84M2NFFBM80AC7DEF0GZDHA",
    event_type: "invitation_accepted",
    user: { id: "bdc594e8-3596-4c4d-bc42-165a70801f32", email: "ada@acme.test", name: "Ada Admin" },
    ip_address: "127.0.0.1",
    details: {
      invitation_id: "01M84M2JRR02A4753J81QXQWGQ",
      role: "cohort_admin",
      email: "ada@acme.test",
      institution_id: "01M84M2ES7DTY37NE05PPBJBQG",
    },
    created_at: "2026-11-23T16:33:26.511Z",
    description: "ada@acme.test accepted an invitation as cohort_admin",
  },
  securityAlerts: {
    ...{
      summary: { unauthorized_institution_access: 1, rate_limit_exceeded: 1, token_validation_failure: 1 },
      alerts: [],
      time_range: { from: "2026-11-23T15:33:27.285Z", to: "2026-11-23T16:33:27.285Z" },
    },
    series: series("2026-11-23T15:33:27.285Z"),
  },
  securityEventExport:
    'id,event_type,created_at,user_id,user_email,ip_address,description,details\r\n01M84M2HTCWMKJZ6C5HZPNP2SM,institution_created,2026-11-23T16:33:22.764Z,b225f876-4988-446b-bd3c-7c506f33d77c,olive@acme.test,127.0.0.1,olive@acme.test created institution \'Beta Institute\',"{""institution_id"":""01M84M2HTC4RVNX6Y27RW9DZGD"",""name"":""Beta Institute""}"\r\n01M84M2ES7CJDHJ7M5RKKRXNCG,institution_created,2026-11-23T16:33:19.655Z,b225f876-4988-446b-bd3c-7c506f33d77c,olive@acme.test,127.0.0.1,olive@acme.test created institution \'Acme College\',"{""institution_id"":""01M84M2ES7DTY37NE05PPBJBQG"",""name"":""Acme College""}"\r\n',
};
