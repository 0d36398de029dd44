-- Profiles, procedural rules, memory settings (opt-out), deletion audit. Filled in by the controls work.
SELECT 1;
