-- mapindex index schema: the tables' CHECK constraints list their values with
-- OR instead of IN. Same rows accepted, same rows refused.
--
-- Why: SQLite evaluates `x IN (a, b, c)` with more than two constants by
-- building a temporary B-tree of the constants, and a CHECK constraint does
-- so on every INSERT and UPDATE of its table: writing the layers of a map
-- built and freed one such B-tree per layer, 30% of the writer's instructions
-- on the benchmark of map versions (synth-history, benchmarks/RESULTS.md).
-- `x = a OR x = b OR x = c` compares in place. The same holds for NULL: both
-- forms give NULL, which a CHECK accepts. From here on, a table's CHECK never
-- uses IN (the guard below holds these tables to it, tests/test_index.cpp
-- every table of the schema).
--
-- How: a CHECK constraint is only text in sqlite_schema, read when the
-- schema is loaded; no row and no page of a table depends on it. So the text
-- is edited in place, as SQLite documents for removing a constraint without
-- copying its table (https://sqlite.org/lang_altertable.html, "otheralter"):
-- PRAGMA writable_schema, each CHECK replaced by its exact text as the earlier
-- migrations wrote it, the schema reloaded (RESET), and a DDL statement to
-- change the schema cookie so every other connection reloads it too. What
-- makes an edit of this kind safe is that the new constraint accepts exactly
-- the rows the old one did (tests/test_index.cpp compares quick_check's
-- verdicts on rows of every listed and unlisted value before and after). No
-- table is copied: the migration costs what the runner's foreign key check
-- after every migration costs. The runner's transaction makes it all or
-- nothing.

PRAGMA writable_schema = ON;

UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (status IN (''running'', ''complete'', ''interrupted'', ''failed''))',
  'CHECK (status = ''running'' OR status = ''complete'' OR status = ''interrupted''
                           OR status = ''failed'')')
WHERE type = 'table' AND name = 'runs';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (kind IN (''archive'', ''folder'', ''file'', ''stdin''))',
  'CHECK (kind = ''archive'' OR kind = ''folder'' OR kind = ''file'' OR kind = ''stdin'')')
WHERE type = 'table' AND name = 'sources';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (reading IN (''complete'', ''partial'', ''unreadable''))',
  'CHECK (reading = ''complete'' OR reading = ''partial'' OR reading = ''unreadable'')')
WHERE type = 'table' AND name = 'run_sources';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (format IN (''teeworlds'', ''spritetile''))',
  'CHECK (format = ''teeworlds'' OR format = ''spritetile'')')
WHERE type = 'table' AND name = 'maps';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (status IN (''ok'', ''warnings'', ''rejected''))',
  'CHECK (status = ''ok'' OR status = ''warnings'' OR status = ''rejected'')')
WHERE type = 'table' AND name = 'maps';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (loads_teeworlds_06 IN (0, 1))',
  'CHECK (loads_teeworlds_06 = 0 OR loads_teeworlds_06 = 1)')
WHERE type = 'table' AND name = 'maps';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (loads_teeworlds_07 IN (0, 1))',
  'CHECK (loads_teeworlds_07 = 0 OR loads_teeworlds_07 = 1)')
WHERE type = 'table' AND name = 'maps';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (teeworlds_status IN (''ok'', ''warnings'', ''rejected''))',
  'CHECK (teeworlds_status = ''ok'' OR teeworlds_status = ''warnings''
                          OR teeworlds_status = ''rejected'')')
WHERE type = 'table' AND name = 'maps';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (kind IN (''map'', ''other'', ''oversize'', ''unreadable''))',
  'CHECK (kind = ''map'' OR kind = ''other'' OR kind = ''oversize'' OR kind = ''unreadable'')')
WHERE type = 'table' AND name = 'file_versions';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (kind IN (''tiles'', ''game'', ''front'', ''tele'', ''speedup'',
                    ''switch'', ''tune'', ''quads'', ''sounds'', ''sounds_deprecated'', ''spritetile'',
                    ''unknown''))',
  'CHECK (kind = ''tiles'' OR kind = ''game'' OR kind = ''front'' OR kind = ''tele''
                    OR kind = ''speedup'' OR kind = ''switch'' OR kind = ''tune'' OR kind = ''quads''
                    OR kind = ''sounds'' OR kind = ''sounds_deprecated'' OR kind = ''spritetile''
                    OR kind = ''unknown'')')
WHERE type = 'table' AND name = 'layers';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (kind IN (''sound'', ''position'', ''color'', ''unknown''))',
  'CHECK (kind = ''sound'' OR kind = ''position'' OR kind = ''color'' OR kind = ''unknown'')')
WHERE type = 'table' AND name = 'envelopes';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (role IN (''layer_color'', ''quad_position'', ''quad_color'',
                   ''source_position'', ''source_sound''))',
  'CHECK (role = ''layer_color'' OR role = ''quad_position'' OR role = ''quad_color''
                   OR role = ''source_position'' OR role = ''source_sound'')')
WHERE type = 'table' AND name = 'envelope_users';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (kind IN (''map'', ''other'', ''oversize'', ''unreadable''))',
  'CHECK (kind = ''map'' OR kind = ''other'' OR kind = ''oversize'' OR kind = ''unreadable'')')
WHERE type = 'table' AND name = 'files';
UPDATE sqlite_schema SET sql = replace(sql,
  'CHECK (severity IN (''error'', ''warning'', ''info''))',
  'CHECK (severity = ''error'' OR severity = ''warning'' OR severity = ''info'')')
WHERE type = 'table' AND name = 'problems';

PRAGMA writable_schema = RESET;

-- Every CHECK list of these tables was found and replaced: otherwise the
-- migration fails, the index stays at version 8, and the message names the
-- table ("CHECK constraint failed: in_list_left_in_layers = 0").
CREATE TEMP TABLE migration_009_guard (
  in_list_left_in_runs INTEGER NOT NULL CHECK (in_list_left_in_runs = 0),
  in_list_left_in_sources INTEGER NOT NULL CHECK (in_list_left_in_sources = 0),
  in_list_left_in_run_sources INTEGER NOT NULL CHECK (in_list_left_in_run_sources = 0),
  in_list_left_in_maps INTEGER NOT NULL CHECK (in_list_left_in_maps = 0),
  in_list_left_in_file_versions INTEGER NOT NULL CHECK (in_list_left_in_file_versions = 0),
  in_list_left_in_layers INTEGER NOT NULL CHECK (in_list_left_in_layers = 0),
  in_list_left_in_envelopes INTEGER NOT NULL CHECK (in_list_left_in_envelopes = 0),
  in_list_left_in_envelope_users INTEGER NOT NULL CHECK (in_list_left_in_envelope_users = 0),
  in_list_left_in_files INTEGER NOT NULL CHECK (in_list_left_in_files = 0),
  in_list_left_in_problems INTEGER NOT NULL CHECK (in_list_left_in_problems = 0)
);
INSERT INTO migration_009_guard
SELECT (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'runs' AND sql LIKE '% IN (%'),
       (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'sources' AND sql LIKE '% IN (%'),
       (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'run_sources' AND sql LIKE '% IN (%'),
       (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'maps' AND sql LIKE '% IN (%'),
       (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'file_versions' AND sql LIKE '% IN (%'),
       (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'layers' AND sql LIKE '% IN (%'),
       (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'envelopes' AND sql LIKE '% IN (%'),
       (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'envelope_users' AND sql LIKE '% IN (%'),
       (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'files' AND sql LIKE '% IN (%'),
       (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'problems' AND sql LIKE '% IN (%');
DROP TABLE migration_009_guard;

-- Changes the schema cookie (PRAGMA schema_version), as the procedure asks.
CREATE TABLE migration_009_cookie (x);
DROP TABLE migration_009_cookie;
