-- mapindex index schema, version 1.
--
-- Run by the migration runner (src/index/migrations.cpp) inside one
-- transaction, which then sets PRAGMA user_version = 1. Never edit a released
-- migration: add schema/002_*.sql instead. README.md ("Schema reference") documents every
-- table and column.

PRAGMA application_id = 1297107288;  -- 'MPIX': marks the file as a mapindex index

-- Runs -----------------------------------------------------------------------

CREATE TABLE runs (
  run_id            INTEGER PRIMARY KEY,
  started_at        TEXT    NOT NULL,
  finished_at       TEXT,
  status            TEXT    NOT NULL DEFAULT 'running'
                    CHECK (status IN ('running', 'complete', 'interrupted', 'failed')),
  tool_version      TEXT    NOT NULL,
  extractor_version INTEGER NOT NULL,
  command           TEXT    NOT NULL,
  host              TEXT    NOT NULL DEFAULT '',
  pid               INTEGER NOT NULL DEFAULT 0,
  entries           INTEGER NOT NULL DEFAULT 0,
  maps_indexed      INTEGER NOT NULL DEFAULT 0,
  maps_known        INTEGER NOT NULL DEFAULT 0,
  rejected          INTEGER NOT NULL DEFAULT 0,
  with_warnings     INTEGER NOT NULL DEFAULT 0,
  not_maps          INTEGER NOT NULL DEFAULT 0,
  unreadable        INTEGER NOT NULL DEFAULT 0,
  oversize          INTEGER NOT NULL DEFAULT 0,
  bytes             INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_by_status ON runs (status);

-- Where content is seen ------------------------------------------------------

CREATE TABLE sources (
  source_id    INTEGER PRIMARY KEY,
  path         TEXT    NOT NULL,
  kind         TEXT    NOT NULL CHECK (kind IN ('archive', 'folder', 'file', 'stdin')),
  first_run_id INTEGER NOT NULL REFERENCES runs (run_id),
  last_run_id  INTEGER NOT NULL REFERENCES runs (run_id),
  UNIQUE (path, kind)
);

CREATE TABLE run_sources (
  run_id    INTEGER NOT NULL REFERENCES runs (run_id),
  source_id INTEGER NOT NULL REFERENCES sources (source_id),
  PRIMARY KEY (run_id, source_id)
) WITHOUT ROWID;
CREATE INDEX run_sources_by_source ON run_sources (source_id, run_id);

-- One row per distinct map content (SHA-256). --------------------------------

CREATE TABLE maps (
  map_id              INTEGER PRIMARY KEY,
  sha256              TEXT    NOT NULL UNIQUE
                      CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
  crc32               INTEGER NOT NULL,
  size                INTEGER NOT NULL,
  extractor_version   INTEGER NOT NULL,
  first_run_id        INTEGER NOT NULL REFERENCES runs (run_id),
  measured_run_id     INTEGER NOT NULL REFERENCES runs (run_id),
  format              TEXT    NOT NULL CHECK (format IN ('teeworlds', 'spritetile')),
  format_version      INTEGER NOT NULL,
  status              TEXT    NOT NULL CHECK (status IN ('ok', 'warnings', 'rejected')),
  errors              INTEGER NOT NULL,
  warnings            INTEGER NOT NULL,
  game_width          INTEGER NOT NULL,
  game_height         INTEGER NOT NULL,
  author              TEXT,
  map_version         TEXT,
  credits             TEXT,
  license             TEXT,
  crude_header        INTEGER NOT NULL,
  reversed_magic      INTEGER NOT NULL,
  num_items           INTEGER NOT NULL,
  num_data            INTEGER NOT NULL,
  uuid_types          TEXT    NOT NULL,
  tiles_per_set       INTEGER NOT NULL,
  num_groups          INTEGER NOT NULL,
  num_layers          INTEGER NOT NULL,
  num_images          INTEGER NOT NULL,
  num_envelopes       INTEGER NOT NULL,
  num_envelope_points INTEGER NOT NULL,
  num_sounds          INTEGER NOT NULL,
  num_settings        INTEGER NOT NULL,
  num_automappers     INTEGER NOT NULL,
  num_quads           INTEGER NOT NULL,
  num_sound_sources   INTEGER NOT NULL
);
CREATE INDEX maps_by_status ON maps (status);
CREATE INDEX maps_by_author ON maps (author);

-- One row per (source, path inside it): the entry as last seen. ---------------

CREATE TABLE files (
  file_id        INTEGER PRIMARY KEY,
  source_id      INTEGER NOT NULL REFERENCES sources (source_id),
  entry_path     TEXT    NOT NULL,
  name           TEXT    NOT NULL,
  kind           TEXT    NOT NULL CHECK (kind IN ('map', 'other', 'oversize', 'unreadable')),
  size           INTEGER NOT NULL,
  sha256         TEXT,
  crc32          INTEGER,
  map_id         INTEGER REFERENCES maps (map_id),
  first_run_id   INTEGER NOT NULL REFERENCES runs (run_id),
  last_run_id    INTEGER NOT NULL REFERENCES runs (run_id),
  changed_run_id INTEGER NOT NULL REFERENCES runs (run_id),
  UNIQUE (source_id, entry_path),
  CHECK ((kind = 'map') = (map_id IS NOT NULL))
);
CREATE INDEX files_by_map ON files (map_id);
CREATE INDEX files_by_sha256 ON files (sha256);
CREATE INDEX files_by_name ON files (name);

-- Every distinct content an entry has had, and which one each run saw. -------

CREATE TABLE file_versions (
  version_id   INTEGER PRIMARY KEY,
  file_id      INTEGER NOT NULL REFERENCES files (file_id),
  kind         TEXT    NOT NULL CHECK (kind IN ('map', 'other', 'oversize', 'unreadable')),
  size         INTEGER NOT NULL,
  sha256       TEXT,
  crc32        INTEGER,
  map_id       INTEGER REFERENCES maps (map_id),
  first_run_id INTEGER NOT NULL REFERENCES runs (run_id)
);
CREATE UNIQUE INDEX file_versions_by_content
  ON file_versions (file_id, kind, size, ifnull(sha256, ''));
CREATE INDEX file_versions_by_sha256 ON file_versions (sha256);
CREATE INDEX file_versions_by_map ON file_versions (map_id);

CREATE TABLE file_sightings (
  run_id     INTEGER NOT NULL REFERENCES runs (run_id),
  file_id    INTEGER NOT NULL REFERENCES files (file_id),
  version_id INTEGER NOT NULL REFERENCES file_versions (version_id),
  PRIMARY KEY (run_id, file_id)
) WITHOUT ROWID;
CREATE INDEX file_sightings_by_file ON file_sightings (file_id, run_id);

-- Problems: of a map (map_id, the run that measured it) or of an entry
-- (file_id, the run that last saw it). ---------------------------------------

CREATE TABLE problems (
  run_id   INTEGER NOT NULL REFERENCES runs (run_id),
  map_id   INTEGER REFERENCES maps (map_id),
  file_id  INTEGER REFERENCES files (file_id),
  position INTEGER NOT NULL,
  severity TEXT    NOT NULL CHECK (severity IN ('error', 'warning')),
  code     TEXT    NOT NULL,
  message  TEXT    NOT NULL,
  location TEXT    NOT NULL,
  CHECK ((map_id IS NULL) <> (file_id IS NULL))
);
CREATE UNIQUE INDEX problems_of_map ON problems (map_id, position) WHERE map_id IS NOT NULL;
CREATE UNIQUE INDEX problems_of_file ON problems (file_id, position) WHERE file_id IS NOT NULL;
CREATE INDEX problems_by_code ON problems (code);
CREATE INDEX problems_by_run ON problems (run_id);

-- What a map contains (child rows of maps, replaced when re-measured). --------

CREATE TABLE settings (
  map_id   INTEGER NOT NULL REFERENCES maps (map_id),
  position INTEGER NOT NULL,
  command  TEXT    NOT NULL,
  PRIMARY KEY (map_id, position)
) WITHOUT ROWID;

CREATE TABLE groups (
  map_id      INTEGER NOT NULL REFERENCES maps (map_id),
  group_index INTEGER NOT NULL,
  version     INTEGER NOT NULL,
  name        TEXT    NOT NULL,
  offset_x    INTEGER NOT NULL,
  offset_y    INTEGER NOT NULL,
  parallax_x  INTEGER NOT NULL,
  parallax_y  INTEGER NOT NULL,
  start_layer INTEGER NOT NULL,
  num_layers  INTEGER NOT NULL,
  clipping    INTEGER NOT NULL,
  clip_x      INTEGER NOT NULL,
  clip_y      INTEGER NOT NULL,
  clip_w      INTEGER NOT NULL,
  clip_h      INTEGER NOT NULL,
  game_group  INTEGER NOT NULL,
  PRIMARY KEY (map_id, group_index)
) WITHOUT ROWID;

CREATE TABLE layers (
  map_id          INTEGER NOT NULL REFERENCES maps (map_id),
  layer_index     INTEGER NOT NULL,
  group_index     INTEGER,
  kind            TEXT    NOT NULL CHECK (kind IN ('tiles', 'game', 'front', 'tele', 'speedup',
                    'switch', 'tune', 'quads', 'sounds', 'sounds_deprecated', 'spritetile',
                    'unknown')),
  item_type       INTEGER NOT NULL,
  version         INTEGER NOT NULL,
  name            TEXT    NOT NULL,
  width           INTEGER NOT NULL,
  height          INTEGER NOT NULL,
  detail          INTEGER NOT NULL,
  image           INTEGER,
  color_envelope  INTEGER,
  color_r         INTEGER NOT NULL,
  color_g         INTEGER NOT NULL,
  color_b         INTEGER NOT NULL,
  color_a         INTEGER NOT NULL,
  skip_compressed INTEGER NOT NULL,
  non_empty       INTEGER NOT NULL,
  flip_x          INTEGER NOT NULL,
  flip_y          INTEGER NOT NULL,
  rotate          INTEGER NOT NULL,
  num_quads       INTEGER NOT NULL,
  num_sources     INTEGER NOT NULL,
  sound           INTEGER,
  st_tile_size_x  REAL,
  st_tile_size_y  REAL,
  st_z            REAL,
  st_scroll_x     INTEGER,
  st_scroll_y     INTEGER,
  st_preview_size INTEGER,
  st_layer_lock   INTEGER,
  st_add_border   INTEGER,
  st_colliders    INTEGER,
  st_flip_both    INTEGER,
  st_order_min    INTEGER,
  st_order_max    INTEGER,
  PRIMARY KEY (map_id, layer_index)
) WITHOUT ROWID;
CREATE INDEX layers_by_kind ON layers (kind);

CREATE TABLE tile_counts (
  map_id      INTEGER NOT NULL REFERENCES maps (map_id),
  layer_index INTEGER NOT NULL,
  layer_kind  TEXT    NOT NULL,
  tile        INTEGER NOT NULL,
  count       INTEGER NOT NULL,
  PRIMARY KEY (map_id, layer_index, tile)
) WITHOUT ROWID;
-- Physics layers only: visual tile layers hold most rows and are rarely asked
-- about, and indexing them would make writing several times slower. A query
-- uses this index when it says layer_kind = 'game' (or another physics kind)
-- literally.
CREATE INDEX tile_counts_by_tile ON tile_counts (layer_kind, tile, count)
  WHERE layer_kind = 'game' OR layer_kind = 'front' OR layer_kind = 'tele'
     OR layer_kind = 'speedup' OR layer_kind = 'switch' OR layer_kind = 'tune';

CREATE TABLE entities (
  map_id      INTEGER NOT NULL REFERENCES maps (map_id),
  layer_index INTEGER NOT NULL,
  layer_kind  TEXT    NOT NULL,
  entity      TEXT    NOT NULL,
  count       INTEGER NOT NULL,
  PRIMARY KEY (map_id, layer_index, entity)
) WITHOUT ROWID;
CREATE INDEX entities_by_entity ON entities (entity);

CREATE TABLE layer_numbers (
  map_id      INTEGER NOT NULL REFERENCES maps (map_id),
  layer_index INTEGER NOT NULL,
  number      INTEGER NOT NULL,
  PRIMARY KEY (map_id, layer_index, number)
) WITHOUT ROWID;

CREATE TABLE images (
  map_id           INTEGER NOT NULL REFERENCES maps (map_id),
  image_index      INTEGER NOT NULL,
  version          INTEGER NOT NULL,
  name             TEXT    NOT NULL,
  width            INTEGER NOT NULL,
  height           INTEGER NOT NULL,
  external         INTEGER NOT NULL,
  rgba             INTEGER NOT NULL,
  standard_name    INTEGER NOT NULL,
  data_stored_size INTEGER,
  data_size        INTEGER,
  PRIMARY KEY (map_id, image_index)
) WITHOUT ROWID;
CREATE INDEX images_by_name ON images (name);

CREATE TABLE image_users (
  map_id      INTEGER NOT NULL REFERENCES maps (map_id),
  image_index INTEGER NOT NULL,
  layer_index INTEGER NOT NULL,
  quads       INTEGER NOT NULL,
  PRIMARY KEY (map_id, image_index, layer_index)
) WITHOUT ROWID;

CREATE TABLE envelopes (
  map_id         INTEGER NOT NULL REFERENCES maps (map_id),
  envelope_index INTEGER NOT NULL,
  version        INTEGER NOT NULL,
  channels       INTEGER NOT NULL,
  kind           TEXT    NOT NULL CHECK (kind IN ('sound', 'position', 'color', 'unknown')),
  name           TEXT    NOT NULL,
  synchronized   INTEGER NOT NULL,
  start_point    INTEGER NOT NULL,
  num_points     INTEGER NOT NULL,
  curve_step     INTEGER NOT NULL,
  curve_linear   INTEGER NOT NULL,
  curve_slow     INTEGER NOT NULL,
  curve_fast     INTEGER NOT NULL,
  curve_smooth   INTEGER NOT NULL,
  curve_bezier   INTEGER NOT NULL,
  curve_unknown  INTEGER NOT NULL,
  PRIMARY KEY (map_id, envelope_index)
) WITHOUT ROWID;

CREATE TABLE envelope_users (
  map_id         INTEGER NOT NULL REFERENCES maps (map_id),
  envelope_index INTEGER NOT NULL,
  layer_index    INTEGER NOT NULL,
  role           TEXT    NOT NULL CHECK (role IN ('layer_color', 'quad_position', 'quad_color',
                   'source_position', 'source_sound')),
  count          INTEGER NOT NULL,
  PRIMARY KEY (map_id, envelope_index, layer_index, role)
) WITHOUT ROWID;

CREATE TABLE sounds (
  map_id           INTEGER NOT NULL REFERENCES maps (map_id),
  sound_index      INTEGER NOT NULL,
  name             TEXT    NOT NULL,
  external         INTEGER NOT NULL,
  data_stored_size INTEGER,
  data_size        INTEGER,
  PRIMARY KEY (map_id, sound_index)
) WITHOUT ROWID;

CREATE TABLE sound_users (
  map_id      INTEGER NOT NULL REFERENCES maps (map_id),
  sound_index INTEGER NOT NULL,
  layer_index INTEGER NOT NULL,
  sources     INTEGER NOT NULL,
  PRIMARY KEY (map_id, sound_index, layer_index)
) WITHOUT ROWID;

CREATE TABLE ddnet_features (
  map_id  INTEGER NOT NULL REFERENCES maps (map_id),
  feature TEXT    NOT NULL,
  PRIMARY KEY (map_id, feature)
) WITHOUT ROWID;
CREATE INDEX ddnet_features_by_feature ON ddnet_features (feature);

-- Names of tile indices per layer kind, filled from schema/tile_names.csv
-- (kept in sync with the binary's copy whenever an index is opened for writing).
CREATE TABLE tile_names (
  layer_kind TEXT    NOT NULL,
  tile       INTEGER NOT NULL,
  name       TEXT    NOT NULL,
  category   TEXT    NOT NULL,
  PRIMARY KEY (layer_kind, tile)
) WITHOUT ROWID;

-- Views ----------------------------------------------------------------------

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
       f.last_run_id = s.last_run_id AS in_latest_run
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
       f.entry_path
FROM problems p
LEFT JOIN map_names n ON n.map_id = p.map_id
LEFT JOIN files f ON f.file_id = p.file_id
LEFT JOIN sources s ON s.source_id = f.source_id;

-- Tiles of the physics layers per map, summed over the layers of each kind,
-- with their names.
CREATE VIEW map_tiles AS
SELECT t.map_id,
       t.layer_kind,
       t.tile,
       n.name,
       sum(t.count) AS count
FROM tile_counts t
LEFT JOIN tile_names n ON n.layer_kind = t.layer_kind AND n.tile = t.tile
WHERE t.layer_kind <> 'tiles'
GROUP BY t.map_id, t.layer_kind, t.tile;

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
       v.version_id
FROM file_sightings h
JOIN files f ON f.file_id = h.file_id
JOIN file_versions v ON v.version_id = h.version_id;
