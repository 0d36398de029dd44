-- Background jobs (durable extraction queue). Filled in by the jobs work.
SELECT 1;
