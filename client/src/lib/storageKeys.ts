//! Names of the local-storage entries the client keeps (spec §3 "Session keys in local storage").

export const STORAGE = {
  token: 'user',
  userId: 'userId',
  company: 'company',
  companyId: 'companyId',
  role: 'role',
  expiresAt: 'expiresAt',
  /** A paired ward screen's unit (role 3) and when it renews its token. */
  boardUnit: 'boardUnit',
  renewAt: 'renewAt',
  adminAccess: 'isAdminAccessGrantedByPwd',
  language: 'preferredLanguage',
  streamingEnd: 'streamingEndTime',
} as const;
