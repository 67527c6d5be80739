-- mapindex index schema, version 5: the info severity.
--
-- Run by the migration runner (src/index/migrations.cpp) inside one
-- transaction with foreign keys off, which then checks PRAGMA foreign_key_check
-- and sets PRAGMA user_version. README.md ("Schema reference", "Problem
-- severities") documents every column; src/extract/README.md has the codes.
--
-- Findings that cannot break a map in any game (an envelope, image or sound
-- nothing uses; an automapper item pointing nowhere, which only DDNet's editor
-- reads and skips) are of severity `info`, not `warning`. A map's status counts
-- errors and warnings only, so a map whose only findings are info is `ok`.
--
-- 1. problems.severity may be 'info': SQLite cannot change a CHECK in place,
--    so problems is rebuilt (SQLite's "12-step" procedure), with the views
--    that read it dropped first and created again after. The stored rows of
--    those codes become info.
-- 2. maps.infos counts a map's info problems; maps.warnings no longer counts
--    them; maps.status and maps.teeworlds_status become ok where the only
--    warnings were these. runs.with_warnings keeps what each run counted.

ALTER TABLE maps ADD COLUMN infos INTEGER NOT NULL DEFAULT 0;

-- problems, rebuilt ----------------------------------------------------------

DROP VIEW problem_list;
DROP VIEW maps_with_errors;
DROP VIEW file_overview;

CREATE TABLE problems_v5 (
  run_id   INTEGER NOT NULL REFERENCES runs (run_id),
  map_id   INTEGER REFERENCES maps (map_id),
  file_id  INTEGER REFERENCES files (file_id),
  position INTEGER NOT NULL,
  severity TEXT    NOT NULL CHECK (severity IN ('error', 'warning', 'info')),
  code     TEXT    NOT NULL,
  message  TEXT    NOT NULL,
  location TEXT    NOT NULL,
  CHECK ((map_id IS NULL) <> (file_id IS NULL))
);

INSERT INTO problems_v5 (rowid, run_id, map_id, file_id, position, severity, code, message,
                         location)
SELECT rowid, run_id, map_id, file_id, position,
       CASE WHEN severity = 'warning' AND map_id IS NOT NULL
                 AND code IN ('envelope.unused', 'image.unused', 'sound.unused',
                              'automapper.target')
            THEN 'info' ELSE severity END,
       code, message, location
FROM problems;

DROP TABLE problems;
ALTER TABLE problems_v5 RENAME TO problems;

CREATE UNIQUE INDEX problems_of_map ON problems (map_id, position) WHERE map_id IS NOT NULL;
CREATE UNIQUE INDEX problems_of_file ON problems (file_id, position) WHERE file_id IS NOT NULL;
CREATE INDEX problems_by_code ON problems (code);
CREATE INDEX problems_by_run ON problems (run_id);

-- Counts and statuses --------------------------------------------------------

UPDATE maps SET infos = (SELECT count(*) FROM problems p
                          WHERE p.map_id = maps.map_id AND p.severity = 'info')
  WHERE EXISTS (SELECT 1 FROM problems p WHERE p.map_id = maps.map_id AND p.severity = 'info');
UPDATE maps SET warnings = max(warnings - infos, 0) WHERE infos > 0;
UPDATE maps SET status = 'ok' WHERE status = 'warnings' AND errors = 0 AND warnings = 0;
-- teeworlds_status is warnings for a map that loads in a Teeworlds version and
-- is not ok for DDNet: ok now where DDNet's status became ok.
UPDATE maps SET teeworlds_status = 'ok' WHERE teeworlds_status = 'warnings' AND status = 'ok';

-- The views that read problems, as in 002, with maps.infos at the end of
-- file_overview. ---------------------------------------------------------------

-- One row per file: where it is, what it is, and the main numbers of its map.
CREATE VIEW file_overview AS
SELECT f.file_id,
       s.path AS source,
       f.entry_path,
       f.name,
       f.kind,
       CASE WHEN f.kind = 'map' THEN m.status ELSE f.kind END AS status,
       f.size,
       m.format,
       m.format_version,
       m.game_width,
       m.game_height,
       m.num_layers AS layers,
       m.num_images AS images,
       m.num_envelopes AS envelopes,
       m.num_sounds AS sounds,
       m.num_quads AS quads,
       m.errors,
       m.warnings,
       (SELECT count(*) FROM problems p WHERE p.file_id = f.file_id) AS entry_problems,
       m.author,
       f.map_id,
       f.sha256,
       f.first_run_id,
       f.last_run_id,
       f.last_run_id = s.last_run_id AS in_latest_run,
       f.occurrence,
       f.entry_path_raw,
       m.infos
FROM files f
JOIN sources s ON s.source_id = f.source_id
LEFT JOIN maps m ON m.map_id = f.map_id;

-- Maps with at least one error (DDNet would refuse them).
CREATE VIEW maps_with_errors AS
SELECT m.map_id,
       n.name AS map_name,
       m.sha256,
       m.status,
       m.errors,
       m.warnings,
       (SELECT group_concat(DISTINCT p.code) FROM problems p
         WHERE p.map_id = m.map_id AND p.severity = 'error') AS error_codes,
       (SELECT p.message FROM problems p
         WHERE p.map_id = m.map_id AND p.severity = 'error'
         ORDER BY p.position LIMIT 1) AS first_error,
       n.files
FROM maps m
JOIN map_names n ON n.map_id = m.map_id
WHERE m.errors > 0;

-- Every problem with the names it belongs to.
CREATE VIEW problem_list AS
SELECT p.run_id,
       p.severity,
       p.code,
       p.message,
       p.location,
       p.map_id,
       coalesce(n.name, f.name) AS name,
       p.file_id,
       s.path AS source,
       f.entry_path,
       f.occurrence
FROM problems p
LEFT JOIN map_names n ON n.map_id = p.map_id
LEFT JOIN files f ON f.file_id = p.file_id
LEFT JOIN sources s ON s.source_id = f.source_id;
