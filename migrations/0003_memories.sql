-- Long-term memory tables. Filled in by the memory store work.
SELECT 1;
