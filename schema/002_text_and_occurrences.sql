-- mapindex index schema, version 2: every row true, every text readable.
--
-- Run by the migration runner (src/index/migrations.cpp) inside one
-- transaction with foreign keys off, which then checks PRAGMA foreign_key_check
-- and sets PRAGMA user_version = 2. Never edit a released migration: add
-- schema/003_*.sql instead. README.md ("Schema reference") documents every
-- table and column.
--
-- 1. Every TEXT value is valid UTF-8. Names, info strings and settings that a
--    map stores as other bytes are written with U+FFFD in place of each
--    invalid sequence; the original bytes go to the *_raw BLOB column beside
--    them (NULL when the text is valid UTF-8), and the map has a
--    text.not_utf8 warning. Rows written by schema version 1 may hold such
--    bytes in TEXT: they are repaired here the same way, with the SQL
--    functions mapindex_is_utf8(x) and mapindex_utf8(x) that the migration
--    runner registers (src/index/migrations.cpp). Their text.not_utf8
--    warnings come when a run measures the map again (extractor version 2).
-- 2. files keeps one row per occurrence of an entry path in its source: an
--    archive may hold two entries of the same path. `occurrence` counts them
--    in archive order (1 for the first). SQLite cannot drop the old
--    UNIQUE (source_id, entry_path) in place, so files is rebuilt (SQLite's
--    "12-step" procedure for other kinds of table schema changes), with the
--    views that read it dropped first and created again after.

ALTER TABLE maps ADD COLUMN author_raw BLOB;
ALTER TABLE maps ADD COLUMN map_version_raw BLOB;
ALTER TABLE maps ADD COLUMN credits_raw BLOB;
ALTER TABLE maps ADD COLUMN license_raw BLOB;
ALTER TABLE settings ADD COLUMN command_raw BLOB;
ALTER TABLE groups ADD COLUMN name_raw BLOB;
ALTER TABLE layers ADD COLUMN name_raw BLOB;
ALTER TABLE images ADD COLUMN name_raw BLOB;
ALTER TABLE envelopes ADD COLUMN name_raw BLOB;
ALTER TABLE sounds ADD COLUMN name_raw BLOB;
ALTER TABLE sources ADD COLUMN path_raw BLOB;

-- Text written by version 1 that is not UTF-8: repaired, the bytes kept. -----

UPDATE maps SET author_raw = CAST(author AS BLOB), author = mapindex_utf8(author)
  WHERE NOT mapindex_is_utf8(author);
UPDATE maps SET map_version_raw = CAST(map_version AS BLOB), map_version = mapindex_utf8(map_version)
  WHERE NOT mapindex_is_utf8(map_version);
UPDATE maps SET credits_raw = CAST(credits AS BLOB), credits = mapindex_utf8(credits)
  WHERE NOT mapindex_is_utf8(credits);
UPDATE maps SET license_raw = CAST(license AS BLOB), license = mapindex_utf8(license)
  WHERE NOT mapindex_is_utf8(license);
UPDATE settings SET command_raw = CAST(command AS BLOB), command = mapindex_utf8(command)
  WHERE NOT mapindex_is_utf8(command);
UPDATE groups SET name_raw = CAST(name AS BLOB), name = mapindex_utf8(name)
  WHERE NOT mapindex_is_utf8(name);
UPDATE layers SET name_raw = CAST(name AS BLOB), name = mapindex_utf8(name)
  WHERE NOT mapindex_is_utf8(name);
UPDATE images SET name_raw = CAST(name AS BLOB), name = mapindex_utf8(name)
  WHERE NOT mapindex_is_utf8(name);
UPDATE envelopes SET name_raw = CAST(name AS BLOB), name = mapindex_utf8(name)
  WHERE NOT mapindex_is_utf8(name);
UPDATE sounds SET name_raw = CAST(name AS BLOB), name = mapindex_utf8(name)
  WHERE NOT mapindex_is_utf8(name);
-- Two source paths that differ only in such bytes would collide on
-- UNIQUE (path, kind): the second keeps its bytes (OR IGNORE) rather than
-- failing the migration.
UPDATE OR IGNORE sources SET path_raw = CAST(path AS BLOB), path = mapindex_utf8(path)
  WHERE NOT mapindex_is_utf8(path);
UPDATE problems SET message = mapindex_utf8(message), location = mapindex_utf8(location)
  WHERE NOT mapindex_is_utf8(message) OR NOT mapindex_is_utf8(location);
UPDATE runs SET command = mapindex_utf8(command) WHERE NOT mapindex_is_utf8(command);

-- files, rebuilt -------------------------------------------------------------

DROP VIEW file_history;
DROP VIEW problem_list;
DROP VIEW maps_with_errors;
DROP VIEW unused_images;
DROP VIEW ddnet_mapinfo;
DROP VIEW file_overview;
DROP VIEW map_names;

CREATE TABLE files_v2 (
  file_id        INTEGER PRIMARY KEY,
  source_id      INTEGER NOT NULL REFERENCES sources (source_id),
  entry_path     TEXT    NOT NULL,
  occurrence     INTEGER NOT NULL DEFAULT 1 CHECK (occurrence >= 1),
  entry_path_raw BLOB,
  name           TEXT    NOT NULL,
  kind           TEXT    NOT NULL CHECK (kind IN ('map', 'other', 'oversize', 'unreadable')),
  size           INTEGER NOT NULL,
  sha256         TEXT,
  crc32          INTEGER,
  map_id         INTEGER REFERENCES maps (map_id),
  first_run_id   INTEGER NOT NULL REFERENCES runs (run_id),
  last_run_id    INTEGER NOT NULL REFERENCES runs (run_id),
  changed_run_id INTEGER NOT NULL REFERENCES runs (run_id),
  UNIQUE (source_id, entry_path, occurrence),
  CHECK ((kind = 'map') = (map_id IS NOT NULL))
);

-- Every version 1 row is the first occurrence of its path, unless two paths
-- become one once repaired (then they are occurrences 1, 2, ... by file_id).
INSERT INTO files_v2 (file_id, source_id, entry_path, occurrence, entry_path_raw, name, kind,
                      size, sha256, crc32, map_id, first_run_id, last_run_id, changed_run_id)
SELECT file_id, source_id, mapindex_utf8(entry_path),
       row_number() OVER (PARTITION BY source_id, mapindex_utf8(entry_path) ORDER BY file_id),
       CASE WHEN mapindex_is_utf8(entry_path) THEN NULL ELSE CAST(entry_path AS BLOB) END,
       mapindex_utf8(name), kind, size, sha256, crc32, map_id, first_run_id, last_run_id,
       changed_run_id
FROM files;

DROP TABLE files;
ALTER TABLE files_v2 RENAME TO files;

CREATE INDEX files_by_map ON files (map_id);
CREATE INDEX files_by_sha256 ON files (sha256);
CREATE INDEX files_by_name ON files (name);

-- The views that read files, as in 001 (map_tiles does not read it and stays),
-- with files' new columns at the end of file_overview, problem_list and
-- file_history. -----------------------------------------------------------------


-- One name per map: the file name (without extension) of the file that holds
-- it and was seen most recently, else of the last file that held it.
CREATE VIEW map_names AS
SELECT m.map_id,
       coalesce(
         (SELECT f.name FROM files f WHERE f.map_id = m.map_id
           ORDER BY f.last_run_id DESC, f.file_id LIMIT 1),
         (SELECT f.name FROM file_versions v JOIN files f ON f.file_id = v.file_id
           WHERE v.map_id = m.map_id ORDER BY v.version_id DESC LIMIT 1)) AS name,
       (SELECT count(*) FROM files f WHERE f.map_id = m.map_id) AS files
FROM maps m;

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
       f.entry_path_raw
FROM files f
JOIN sources s ON s.source_id = f.source_id
LEFT JOIN maps m ON m.map_id = f.map_id;

-- DDNet's per-map features, one row per Teeworlds map, with the column names
-- of ddnet.org's mapinfo table (Map, Width, Height, then the 40 flags in its
-- order); map_id, sha256 and status follow. One indexed lookup per flag, so
-- a filter on a few flags or on one map reads only what it needs.
CREATE VIEW ddnet_mapinfo AS
SELECT n.name AS Map,
       m.game_width AS Width,
       m.game_height AS Height,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'DEATH') AS DEATH,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'THROUGH') AS THROUGH,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'JUMP') AS JUMP,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'DFREEZE') AS DFREEZE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'EHOOK_START') AS EHOOK_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'HIT_END') AS HIT_END,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'SOLO_START') AS SOLO_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'TELE_GUN') AS TELE_GUN,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'TELE_GRENADE') AS TELE_GRENADE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'TELE_LASER') AS TELE_LASER,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'NPC_START') AS NPC_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'SUPER_START') AS SUPER_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'JETPACK_START') AS JETPACK_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'WALLJUMP') AS WALLJUMP,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'NPH_START') AS NPH_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'WEAPON_SHOTGUN') AS WEAPON_SHOTGUN,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'WEAPON_GRENADE') AS WEAPON_GRENADE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'POWERUP_NINJA') AS POWERUP_NINJA,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'WEAPON_RIFLE') AS WEAPON_RIFLE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'LASER_STOP') AS LASER_STOP,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'CRAZY_SHOTGUN') AS CRAZY_SHOTGUN,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'DRAGGER') AS DRAGGER,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'DOOR') AS DOOR,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'SWITCH_TIMED') AS SWITCH_TIMED,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'SWITCH') AS SWITCH,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'STOP') AS STOP,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'THROUGH_ALL') AS THROUGH_ALL,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'TUNE') AS TUNE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'OLDLASER') AS OLDLASER,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'TELEINEVIL') AS TELEINEVIL,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'TELEIN') AS TELEIN,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'TELECHECK') AS TELECHECK,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'TELEINWEAPON') AS TELEINWEAPON,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'TELEINHOOK') AS TELEINHOOK,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'CHECKPOINT_FIRST') AS CHECKPOINT_FIRST,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'BONUS') AS BONUS,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'BOOST') AS BOOST,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'PLASMAF') AS PLASMAF,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'PLASMAE') AS PLASMAE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = m.map_id AND d.feature = 'PLASMAU') AS PLASMAU,
       m.map_id,
       m.sha256,
       m.status
FROM maps m
JOIN map_names n ON n.map_id = m.map_id
WHERE m.format = 'teeworlds';

-- Images no layer uses.
CREATE VIEW unused_images AS
SELECT i.map_id,
       n.name AS map_name,
       i.image_index,
       i.name AS image_name,
       i.external,
       i.width,
       i.height,
       i.data_stored_size
FROM images i
JOIN map_names n ON n.map_id = i.map_id
WHERE NOT EXISTS (SELECT 1 FROM image_users u
                  WHERE u.map_id = i.map_id AND u.image_index = i.image_index);

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

-- Which content each run saw at each entry (for comparing runs).
CREATE VIEW file_history AS
SELECT h.run_id,
       f.source_id,
       f.file_id,
       f.entry_path,
       v.kind,
       v.size,
       v.sha256,
       v.map_id,
       v.version_id,
       f.occurrence
FROM file_sightings h
JOIN files f ON f.file_id = h.file_id
JOIN file_versions v ON v.version_id = h.version_id;
