-- mapindex index schema, version 10: the archive as it is now, codes that
-- explain themselves, and view columns that do not collide in joins.
--
-- Run by the migration runner (src/index/migrations.cpp), which sets
-- PRAGMA user_version. docs/schema.md documents every table, view and column.
--
-- 1. run_entries: every entry each run saw, with its status and problem
--    codes. current_maps: the map entries of each source as its latest
--    complete run saw them (the archive now). ddnet_mapinfo answers for the
--    archive now (one row per current map entry); what it answered before
--    (one row per map content ever indexed) is ddnet_mapinfo_history.
-- 2. problem_codes: the program's code table (src/common/problem_codes.h),
--    written whenever an index is opened for writing and the table differs.
--    problem_list gains each problem's title.
-- 3. map_tiles: the tile's name is tile_name (it was name, which collided
--    with map_names.name in the obvious join), and mapinfo_name is the
--    ddnet_mapinfo column the tile sets on that layer kind (tile_names gains
--    the column; the writer fills it from the program's feature table).

-- 1. The archive now ----------------------------------------------------------

-- Every entry each run saw: the content it held in that run (file_versions),
-- its status and the codes of its errors and warnings. A map's problems are
-- its content's; an entry's own problems (reading) are those of its latest
-- sighting.
CREATE VIEW run_entries AS
SELECT h.run_id,
       s.path AS source,
       f.entry_path,
       f.name,
       v.kind,
       CASE WHEN v.kind = 'map' THEN m.status ELSE v.kind END AS status,
       CASE WHEN v.kind = 'map' THEN m.teeworlds_status ELSE v.kind END AS teeworlds_status,
       (SELECT group_concat(code, ',') FROM (
          SELECT p.code, min(p.position) AS first FROM problems p
          WHERE (p.map_id = v.map_id OR p.file_id = f.file_id) AND p.severity <> 'info'
          GROUP BY p.code ORDER BY min(p.severity = 'warning'), first)) AS codes,
       (SELECT p.message FROM problems p
         WHERE (p.map_id = v.map_id OR p.file_id = f.file_id) AND p.severity <> 'info'
         ORDER BY p.severity = 'warning', p.file_id IS NULL, p.position LIMIT 1) AS first_problem,
       m.format,
       m.game_width,
       m.game_height,
       m.num_layers AS layers,
       m.num_images AS images,
       m.num_envelopes AS envelopes,
       m.num_sounds AS sounds,
       m.num_quads AS quads,
       m.errors,
       m.warnings,
       m.infos,
       v.size,
       v.sha256,
       v.map_id,
       f.file_id,
       f.source_id,
       f.occurrence
FROM file_sightings h
JOIN files f ON f.file_id = h.file_id
JOIN sources s ON s.source_id = f.source_id
JOIN file_versions v ON v.version_id = h.version_id
LEFT JOIN maps m ON m.map_id = v.map_id;

-- The map entries (of any status) of each source as the latest complete run
-- (runs.status) that read it saw them. A source that run read only in part
-- keeps the entries of its latest complete reading (as the audit's baseline
-- does); a source never read completely, those of its latest reading.
-- Sources only interrupted or failed runs read are not here.
CREATE VIEW current_maps AS
WITH latest AS (
  SELECT rs.source_id,
         coalesce(max(CASE WHEN rs.reading = 'complete' THEN rs.run_id END),
                  max(rs.run_id)) AS run_id
  FROM run_sources rs
  JOIN runs r ON r.run_id = rs.run_id
  WHERE r.status = 'complete'
  GROUP BY rs.source_id)
SELECT f.name,
       f.entry_path,
       s.path AS source,
       m.status,
       m.teeworlds_status,
       m.format,
       m.game_width,
       m.game_height,
       m.num_layers AS layers,
       m.num_images AS images,
       m.num_envelopes AS envelopes,
       m.num_sounds AS sounds,
       m.num_quads AS quads,
       m.errors,
       m.warnings,
       m.infos,
       (SELECT group_concat(code, ',') FROM (
          SELECT p.code, min(p.position) AS first FROM problems p
          WHERE p.map_id = m.map_id AND p.severity <> 'info'
          GROUP BY p.code ORDER BY min(p.severity = 'warning'), first)) AS codes,
       m.author,
       v.size,
       m.sha256,
       m.map_id,
       f.file_id,
       s.source_id,
       l.run_id,
       f.occurrence
FROM latest l
JOIN file_sightings h ON h.run_id = l.run_id
JOIN files f ON f.file_id = h.file_id AND f.source_id = l.source_id
JOIN file_versions v ON v.version_id = h.version_id
JOIN maps m ON m.map_id = v.map_id
JOIN sources s ON s.source_id = l.source_id
WHERE v.kind = 'map';

-- ddnet_mapinfo as it was (one row per Teeworlds map content ever indexed,
-- named by map_names: deleted and replaced maps included), kept for history.
DROP VIEW ddnet_mapinfo;
CREATE VIEW ddnet_mapinfo_history AS
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

-- DDNet's per-map features for the archive now: one row per Teeworlds map
-- entry of current_maps, with the column names of ddnet.org's mapinfo table
-- (Map is the entry's file name without extension); map_id, sha256, status,
-- source and entry_path follow.
CREATE VIEW ddnet_mapinfo AS
SELECT c.name AS Map,
       c.game_width AS Width,
       c.game_height AS Height,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'DEATH') AS DEATH,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'THROUGH') AS THROUGH,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'JUMP') AS JUMP,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'DFREEZE') AS DFREEZE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'EHOOK_START') AS EHOOK_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'HIT_END') AS HIT_END,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'SOLO_START') AS SOLO_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'TELE_GUN') AS TELE_GUN,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'TELE_GRENADE') AS TELE_GRENADE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'TELE_LASER') AS TELE_LASER,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'NPC_START') AS NPC_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'SUPER_START') AS SUPER_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'JETPACK_START') AS JETPACK_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'WALLJUMP') AS WALLJUMP,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'NPH_START') AS NPH_START,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'WEAPON_SHOTGUN') AS WEAPON_SHOTGUN,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'WEAPON_GRENADE') AS WEAPON_GRENADE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'POWERUP_NINJA') AS POWERUP_NINJA,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'WEAPON_RIFLE') AS WEAPON_RIFLE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'LASER_STOP') AS LASER_STOP,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'CRAZY_SHOTGUN') AS CRAZY_SHOTGUN,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'DRAGGER') AS DRAGGER,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'DOOR') AS DOOR,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'SWITCH_TIMED') AS SWITCH_TIMED,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'SWITCH') AS SWITCH,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'STOP') AS STOP,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'THROUGH_ALL') AS THROUGH_ALL,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'TUNE') AS TUNE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'OLDLASER') AS OLDLASER,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'TELEINEVIL') AS TELEINEVIL,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'TELEIN') AS TELEIN,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'TELECHECK') AS TELECHECK,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'TELEINWEAPON') AS TELEINWEAPON,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'TELEINHOOK') AS TELEINHOOK,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'CHECKPOINT_FIRST') AS CHECKPOINT_FIRST,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'BONUS') AS BONUS,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'BOOST') AS BOOST,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'PLASMAF') AS PLASMAF,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'PLASMAE') AS PLASMAE,
       EXISTS (SELECT 1 FROM ddnet_features d WHERE d.map_id = c.map_id AND d.feature = 'PLASMAU') AS PLASMAU,
       c.map_id,
       c.sha256,
       c.status,
       c.source,
       c.entry_path
FROM current_maps c
WHERE c.format = 'teeworlds';

-- 2. Codes that explain themselves -----------------------------------------

-- One row per code of the program's table (src/common/problem_codes.h):
-- the problems' codes, the audit's release checks and the commands' errors.
-- Filled by the writer, not here: a migration cannot know the table of the
-- program that runs it.
CREATE TABLE problem_codes (
  code          TEXT    NOT NULL,
  severity      TEXT    NOT NULL
                CHECK (severity = 'error' OR severity = 'warning' OR severity = 'info'),
  title         TEXT    NOT NULL,
  scope         TEXT    NOT NULL,
  release_check INTEGER NOT NULL CHECK (release_check = 0 OR release_check = 1),
  meaning       TEXT    NOT NULL,
  ddnet         TEXT,
  teeworlds_06  TEXT,
  teeworlds_07  TEXT,
  hint          TEXT    NOT NULL,
  PRIMARY KEY (code, severity)
) WITHOUT ROWID;

-- problem_list as in 005, with each problem's title at the end.
DROP VIEW problem_list;
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
       f.occurrence,
       c.title
FROM problems p
LEFT JOIN map_names n ON n.map_id = p.map_id
LEFT JOIN files f ON f.file_id = p.file_id
LEFT JOIN sources s ON s.source_id = f.source_id
LEFT JOIN problem_codes c ON c.code = p.code AND c.severity = p.severity;

-- 3. One tile vocabulary, no collisions --------------------------------------

-- tile_names.mapinfo_name: the ddnet_mapinfo column this tile sets on this
-- layer kind (JETPACK_START for game 106 JETPACK_ENABLE), NULL when it sets
-- none.
ALTER TABLE tile_names ADD COLUMN mapinfo_name TEXT;

-- Tiles of the physics layers per map, summed over the layers of each kind,
-- with their names (as in 006, tile_name for name, and mapinfo_name).
DROP VIEW map_tiles;
CREATE VIEW map_tiles AS
SELECT t.map_id,
       t.layer_kind,
       t.tile,
       n.name AS tile_name,
       n.mapinfo_name,
       sum(t.count) AS count
FROM tile_counts t
LEFT JOIN tile_names n ON n.layer_kind = t.layer_kind AND n.tile = t.tile
WHERE t.layer_kind <> 'tiles'
GROUP BY t.map_id, t.layer_kind, t.tile;
