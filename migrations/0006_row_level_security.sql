-- Row-level security policies on tenant and user. Filled in by the controls work.
SELECT 1;
