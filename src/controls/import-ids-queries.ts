/** Which of an import's ids already belong to the user (`$1` tenant, `$2` user, `$3` the ids): those keep their id. */

export const OWN_MEMORY_IDS_SQL = "SELECT id::text AS id FROM memories WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2 AND id = ANY($3::uuid[])";

export const OWN_RULE_IDS_SQL = "SELECT id::text AS id FROM procedural_rules WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2 AND id = ANY($3::uuid[])";

export const OWN_PROFILE_HISTORY_IDS_SQL = "SELECT id::text AS id FROM profile_history WHERE tenant_id = $1 AND user_id = $2 AND id = ANY($3::uuid[])";
