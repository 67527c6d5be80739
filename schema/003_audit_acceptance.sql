-- mapindex index schema, version 3: how completely a run read each source,
-- and what the maintainer told the audit.
--
-- Run by the migration runner (src/index/migrations.cpp), which sets
-- PRAGMA user_version = 3. README.md ("Schema reference", "Nightly audit")
-- documents every column.
--
-- run_sources.reading: complete, partial (the reading was cut short: an error
-- at the source's own path, "" in files.entry_path, or an entry whose reading
-- ended with read.truncated, and other entries read) or unreadable (such an
-- error and nothing else read). A partial or unreadable reading is never the
-- audit's baseline for that source. Runs written before version 3 get it
-- from what they stored.
ALTER TABLE run_sources ADD COLUMN reading TEXT NOT NULL DEFAULT 'complete'
  CHECK (reading IN ('complete', 'partial', 'unreadable'));
-- run_sources.last_entry: partial readings: the path of the last entry read
-- before the cut (NULL otherwise, and for runs written before version 3).
ALTER TABLE run_sources ADD COLUMN last_entry TEXT;

UPDATE run_sources SET reading = 'partial'
  WHERE EXISTS (
    SELECT 1 FROM file_sightings h
    JOIN files f ON f.file_id = h.file_id
    JOIN file_versions v ON v.version_id = h.version_id
    WHERE h.run_id = run_sources.run_id AND f.source_id = run_sources.source_id
      AND v.kind = 'unreadable'
      AND ((f.entry_path = '' AND f.occurrence = 1)
           OR EXISTS (SELECT 1 FROM problems p WHERE p.file_id = f.file_id
                      AND p.run_id = h.run_id AND p.code = 'read.truncated')));

UPDATE run_sources SET reading = 'unreadable'
  WHERE reading = 'partial' AND NOT EXISTS (
    SELECT 1 FROM file_sightings h
    JOIN files f ON f.file_id = h.file_id
    WHERE h.run_id = run_sources.run_id AND f.source_id = run_sources.source_id
      AND f.entry_path <> '');

-- audit_acceptances: runs accepted as they are (`mapindex audit --accept`):
-- the audit of an accepted run reports what it found but exits 0.
CREATE TABLE audit_acceptances (
  run_id      INTEGER PRIMARY KEY REFERENCES runs (run_id),
  accepted_at TEXT    NOT NULL,  -- ISO 8601 UTC
  note        TEXT    NOT NULL DEFAULT ''
);

-- acknowledged_maps: map contents known to be broken or to have warnings
-- (`mapindex audit --acknowledge`): their problems and findings are listed as
-- acknowledged and never fail the audit. By content: a new upload under the
-- same name is a new content and is not acknowledged.
CREATE TABLE acknowledged_maps (
  sha256          TEXT PRIMARY KEY CHECK (length(sha256) = 64),
  name            TEXT NOT NULL,  -- the entry path it was acknowledged by (for people)
  note            TEXT NOT NULL DEFAULT '',
  acknowledged_at TEXT NOT NULL   -- ISO 8601 UTC
);
