-- mapindex index schema, version 11: what a map's versions share is stored once.
--
-- Run by the migration runner (src/index/migrations.cpp) inside one
-- transaction with foreign keys off, which then checks PRAGMA foreign_key_check
-- and sets PRAGMA user_version. schema/README.md says what is stored once and
-- why; the top-level documentation has every table, view and column.
--
-- A new version of a map repeats most of what the last one held: its layers
-- but the few it changed, its groups, images, envelopes, sounds and settings,
-- its DDNet features, often its thumbnail. Each of these is now stored once
-- and the map refers to it:
--
--   layer_defs      one row per distinct layer (every column of a layers row
--                   but map_id and layer_index); map_layers lists each map's
--                   layers (map_id, layer_index) -> layer_def_id.
--   map_bodies      one row per distinct set of a map's settings, groups,
--                   images, envelopes, sounds and their users (body_settings,
--                   body_groups, body_images, body_image_users, body_envelopes,
--                   body_envelope_users, body_sounds, body_sound_users).
--   feature_sets    one row per distinct set of DDNet features
--                   (feature_set_members).
--   thumbnail_images one row per distinct thumbnail: by the key of the layers
--                   it was drawn from (layers_key) and its PNG.
--   map_parts       per map: its body, feature set and thumbnail.
--
-- The tables these replace become views with their names and columns, in
-- their column order: layers, settings, groups, images, image_users,
-- envelopes, envelope_users, sounds, sound_users, ddnet_features,
-- thumbnails. Every query answers as before; the views that name these
-- (unused_images, tile_counts, map_thumbnails, 010's ddnet_mapinfo, ...) read
-- the new views by the same names and are not redefined. Their indexes by kind, name and
-- feature move to the new tables (layer_defs_by_kind, body_images_by_name,
-- feature_set_members_by_feature), with an index from each shared row to the
-- maps that refer to it.
--
-- `key`: the SHA-256 (32 bytes) of the row's values (and of a body's or
-- feature set's rows) as the writer encodes them (src/index/part_key.h);
-- a new row whose key is stored already is not written again, the map refers
-- to the stored one. Rows migrated here have no key (NULL, which never
-- matches a new row): they are shared among the old maps only. Old layers
-- equal in every column share a layer_defs row, maps with the same features
-- a feature set, maps with the same thumbnail (layers_key and PNG) its row;
-- each old map keeps a body of its own (body_id = map_id). A thumbnail
-- without a layers_key is never shared: it is a map's own.

-- Layers -----------------------------------------------------------------------

CREATE TABLE layer_defs (
  layer_def_id    INTEGER PRIMARY KEY,
  key             BLOB CHECK (key IS NULL OR length(key) = 32),
  group_index     INTEGER,
  kind            TEXT    NOT NULL
                  CHECK (kind = 'tiles' OR kind = 'game' OR kind = 'front' OR kind = 'tele'
                    OR kind = 'speedup' OR kind = 'switch' OR kind = 'tune' OR kind = 'quads'
                    OR kind = 'sounds' OR kind = 'sounds_deprecated' OR kind = 'spritetile'
                    OR kind = 'unknown'),
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
  name_raw        BLOB,
  layer_data_id   INTEGER REFERENCES layer_data (layer_data_id)
);

CREATE TABLE map_layers (
  map_id       INTEGER NOT NULL REFERENCES maps (map_id),
  layer_index  INTEGER NOT NULL,
  layer_def_id INTEGER NOT NULL REFERENCES layer_defs (layer_def_id),
  PRIMARY KEY (map_id, layer_index)
) WITHOUT ROWID;

-- Bodies: settings, groups, images, envelopes, sounds -------------------------

CREATE TABLE map_bodies (
  body_id INTEGER PRIMARY KEY,
  key     BLOB CHECK (key IS NULL OR length(key) = 32)
);

CREATE TABLE body_settings (
  body_id     INTEGER NOT NULL REFERENCES map_bodies (body_id),
  position    INTEGER NOT NULL,
  command     TEXT    NOT NULL,
  command_raw BLOB,
  PRIMARY KEY (body_id, position)
) WITHOUT ROWID;

CREATE TABLE body_groups (
  body_id     INTEGER NOT NULL REFERENCES map_bodies (body_id),
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
  name_raw    BLOB,
  PRIMARY KEY (body_id, group_index)
) WITHOUT ROWID;

CREATE TABLE body_images (
  body_id          INTEGER NOT NULL REFERENCES map_bodies (body_id),
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
  name_raw         BLOB,
  PRIMARY KEY (body_id, image_index)
) WITHOUT ROWID;

CREATE TABLE body_image_users (
  body_id     INTEGER NOT NULL REFERENCES map_bodies (body_id),
  image_index INTEGER NOT NULL,
  layer_index INTEGER NOT NULL,
  quads       INTEGER NOT NULL,
  PRIMARY KEY (body_id, image_index, layer_index)
) WITHOUT ROWID;

CREATE TABLE body_envelopes (
  body_id        INTEGER NOT NULL REFERENCES map_bodies (body_id),
  envelope_index INTEGER NOT NULL,
  version        INTEGER NOT NULL,
  channels       INTEGER NOT NULL,
  kind           TEXT    NOT NULL
                 CHECK (kind = 'sound' OR kind = 'position' OR kind = 'color' OR kind = 'unknown'),
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
  name_raw       BLOB,
  PRIMARY KEY (body_id, envelope_index)
) WITHOUT ROWID;

CREATE TABLE body_envelope_users (
  body_id        INTEGER NOT NULL REFERENCES map_bodies (body_id),
  envelope_index INTEGER NOT NULL,
  layer_index    INTEGER NOT NULL,
  role           TEXT    NOT NULL
                 CHECK (role = 'layer_color' OR role = 'quad_position' OR role = 'quad_color'
                   OR role = 'source_position' OR role = 'source_sound'),
  count          INTEGER NOT NULL,
  PRIMARY KEY (body_id, envelope_index, layer_index, role)
) WITHOUT ROWID;

CREATE TABLE body_sounds (
  body_id          INTEGER NOT NULL REFERENCES map_bodies (body_id),
  sound_index      INTEGER NOT NULL,
  name             TEXT    NOT NULL,
  external         INTEGER NOT NULL,
  data_stored_size INTEGER,
  data_size        INTEGER,
  name_raw         BLOB,
  PRIMARY KEY (body_id, sound_index)
) WITHOUT ROWID;

CREATE TABLE body_sound_users (
  body_id     INTEGER NOT NULL REFERENCES map_bodies (body_id),
  sound_index INTEGER NOT NULL,
  layer_index INTEGER NOT NULL,
  sources     INTEGER NOT NULL,
  PRIMARY KEY (body_id, sound_index, layer_index)
) WITHOUT ROWID;

-- DDNet features ------------------------------------------------------------------

CREATE TABLE feature_sets (
  feature_set_id INTEGER PRIMARY KEY,
  key            BLOB CHECK (key IS NULL OR length(key) = 32)
);

CREATE TABLE feature_set_members (
  feature_set_id INTEGER NOT NULL REFERENCES feature_sets (feature_set_id),
  feature        TEXT    NOT NULL,
  PRIMARY KEY (feature_set_id, feature)
) WITHOUT ROWID;

-- Thumbnails -------------------------------------------------------------------------

CREATE TABLE thumbnail_images (
  thumbnail_id INTEGER PRIMARY KEY,
  width        INTEGER NOT NULL CHECK (width BETWEEN 1 AND 256),
  height       INTEGER NOT NULL CHECK (height BETWEEN 1 AND 256),
  png          BLOB    NOT NULL,
  layers_key   BLOB
);

-- Per map ------------------------------------------------------------------------------

-- Every map has a row (an empty body when it has none of those rows);
-- feature_set_id is NULL when the map has no DDNet feature, thumbnail_id when
-- it has no thumbnail.
CREATE TABLE map_parts (
  map_id         INTEGER PRIMARY KEY REFERENCES maps (map_id),
  body_id        INTEGER NOT NULL REFERENCES map_bodies (body_id),
  feature_set_id INTEGER REFERENCES feature_sets (feature_set_id),
  thumbnail_id   INTEGER REFERENCES thumbnail_images (thumbnail_id)
);

-- The old rows, moved ---------------------------------------------------------------

-- Layers: one layer_defs row per distinct old layer (rows equal in every
-- column but map_id and layer_index share one), numbered in the order of
-- their values.
CREATE TEMP TABLE migration_layers AS
SELECT dense_rank() OVER (
         ORDER BY group_index, kind, item_type, version, name, width, height, detail, image,
                  color_envelope, color_r, color_g, color_b, color_a, skip_compressed, non_empty,
                  flip_x, flip_y, rotate, num_quads, num_sources, sound, st_tile_size_x,
                  st_tile_size_y, st_z, st_scroll_x, st_scroll_y, st_preview_size, st_layer_lock,
                  st_add_border, st_colliders, st_flip_both, st_order_min, st_order_max,
                  name_raw, layer_data_id) AS layer_def_id,
       *
FROM layers;
INSERT INTO layer_defs (layer_def_id, key, group_index, kind, item_type, version, name, width,
                        height, detail, image, color_envelope, color_r, color_g, color_b, color_a,
                        skip_compressed, non_empty, flip_x, flip_y, rotate, num_quads,
                        num_sources, sound, st_tile_size_x, st_tile_size_y, st_z, st_scroll_x,
                        st_scroll_y, st_preview_size, st_layer_lock, st_add_border, st_colliders,
                        st_flip_both, st_order_min, st_order_max, name_raw, layer_data_id)
SELECT layer_def_id, NULL, group_index, kind, item_type, version, name, width, height, detail,
       image, color_envelope, color_r, color_g, color_b, color_a, skip_compressed, non_empty,
       flip_x, flip_y, rotate, num_quads, num_sources, sound, st_tile_size_x, st_tile_size_y,
       st_z, st_scroll_x, st_scroll_y, st_preview_size, st_layer_lock, st_add_border,
       st_colliders, st_flip_both, st_order_min, st_order_max, name_raw, layer_data_id
FROM migration_layers
GROUP BY layer_def_id;
INSERT INTO map_layers (map_id, layer_index, layer_def_id)
SELECT map_id, layer_index, layer_def_id FROM migration_layers ORDER BY map_id, layer_index;
DROP TABLE migration_layers;

-- Bodies: each map's own, under its map_id.
INSERT INTO map_bodies (body_id, key) SELECT map_id, NULL FROM maps;
INSERT INTO body_settings SELECT * FROM settings;
INSERT INTO body_groups SELECT * FROM groups;
INSERT INTO body_images SELECT * FROM images;
INSERT INTO body_image_users SELECT * FROM image_users;
INSERT INTO body_envelopes SELECT * FROM envelopes;
INSERT INTO body_envelope_users SELECT * FROM envelope_users;
INSERT INTO body_sounds SELECT * FROM sounds;
INSERT INTO body_sound_users SELECT * FROM sound_users;

-- Feature sets: maps with the same features share the set of the first of
-- them (its map_id).
CREATE TEMP TABLE migration_features AS
SELECT map_id, min(map_id) OVER (PARTITION BY features) AS feature_set_id
FROM (SELECT map_id, group_concat(feature, ' ') AS features
      FROM (SELECT map_id, feature FROM ddnet_features ORDER BY map_id, feature)
      GROUP BY map_id);
INSERT INTO feature_sets (feature_set_id, key)
SELECT feature_set_id, NULL FROM migration_features WHERE map_id = feature_set_id;
INSERT INTO feature_set_members (feature_set_id, feature)
SELECT d.map_id, d.feature FROM ddnet_features d
JOIN migration_features f ON f.map_id = d.map_id AND f.feature_set_id = d.map_id;

-- Thumbnails with a layers_key: maps with the same key and PNG share the
-- first one's (its map_id); without a key, each map keeps its own.
CREATE TEMP TABLE migration_thumbnails AS
SELECT map_id, width, height, png, layers_key,
       CASE WHEN layers_key IS NULL THEN map_id
            ELSE min(map_id) OVER (PARTITION BY layers_key, png) END AS thumbnail_id
FROM thumbnails;
INSERT INTO thumbnail_images (thumbnail_id, width, height, png, layers_key)
SELECT thumbnail_id, width, height, png, layers_key FROM migration_thumbnails
WHERE map_id = thumbnail_id ORDER BY thumbnail_id;

INSERT INTO map_parts (map_id, body_id, feature_set_id, thumbnail_id)
SELECT m.map_id, m.map_id,
       (SELECT f.feature_set_id FROM migration_features f WHERE f.map_id = m.map_id),
       (SELECT t.thumbnail_id FROM migration_thumbnails t WHERE t.map_id = m.map_id)
FROM maps m
ORDER BY m.map_id;
DROP TABLE migration_features;
DROP TABLE migration_thumbnails;

-- The old tables become views -----------------------------------------------------

DROP TABLE layers;
DROP TABLE settings;
DROP TABLE groups;
DROP TABLE images;
DROP TABLE image_users;
DROP TABLE envelopes;
DROP TABLE envelope_users;
DROP TABLE sounds;
DROP TABLE sound_users;
DROP TABLE ddnet_features;
DROP TABLE thumbnails;

CREATE INDEX layer_defs_by_key ON layer_defs (key) WHERE key IS NOT NULL;
CREATE INDEX layer_defs_by_kind ON layer_defs (kind);
CREATE INDEX layer_defs_by_layer_data ON layer_defs (layer_data_id) WHERE layer_data_id IS NOT NULL;
CREATE INDEX map_layers_by_def ON map_layers (layer_def_id);
CREATE INDEX map_bodies_by_key ON map_bodies (key) WHERE key IS NOT NULL;
CREATE INDEX body_images_by_name ON body_images (name);
CREATE INDEX feature_sets_by_key ON feature_sets (key) WHERE key IS NOT NULL;
CREATE INDEX feature_set_members_by_feature ON feature_set_members (feature);
CREATE INDEX thumbnail_images_by_layers_key ON thumbnail_images (layers_key)
  WHERE layers_key IS NOT NULL;
CREATE INDEX map_parts_by_body ON map_parts (body_id);
CREATE INDEX map_parts_by_feature_set ON map_parts (feature_set_id)
  WHERE feature_set_id IS NOT NULL;

-- Every layer of every map (as the table of that name held them).
CREATE VIEW layers AS
SELECT l.map_id, l.layer_index, d.group_index, d.kind, d.item_type, d.version, d.name, d.width,
       d.height, d.detail, d.image, d.color_envelope, d.color_r, d.color_g, d.color_b, d.color_a,
       d.skip_compressed, d.non_empty, d.flip_x, d.flip_y, d.rotate, d.num_quads, d.num_sources,
       d.sound, d.st_tile_size_x, d.st_tile_size_y, d.st_z, d.st_scroll_x, d.st_scroll_y,
       d.st_preview_size, d.st_layer_lock, d.st_add_border, d.st_colliders, d.st_flip_both,
       d.st_order_min, d.st_order_max, d.name_raw, d.layer_data_id
FROM map_layers l
JOIN layer_defs d ON d.layer_def_id = l.layer_def_id;

-- The map's server settings.
CREATE VIEW settings AS
SELECT p.map_id, s.position, s.command, s.command_raw
FROM map_parts p
JOIN body_settings s ON s.body_id = p.body_id;

-- Layer groups.
CREATE VIEW groups AS
SELECT p.map_id, g.group_index, g.version, g.name, g.offset_x, g.offset_y, g.parallax_x,
       g.parallax_y, g.start_layer, g.num_layers, g.clipping, g.clip_x, g.clip_y, g.clip_w,
       g.clip_h, g.game_group, g.name_raw
FROM map_parts p
JOIN body_groups g ON g.body_id = p.body_id;

-- The map's images.
CREATE VIEW images AS
SELECT p.map_id, i.image_index, i.version, i.name, i.width, i.height, i.external, i.rgba,
       i.standard_name, i.data_stored_size, i.data_size, i.name_raw
FROM map_parts p
JOIN body_images i ON i.body_id = p.body_id;

-- Which layers use which image.
CREATE VIEW image_users AS
SELECT p.map_id, u.image_index, u.layer_index, u.quads
FROM map_parts p
JOIN body_image_users u ON u.body_id = p.body_id;

-- Animation envelopes.
CREATE VIEW envelopes AS
SELECT p.map_id, e.envelope_index, e.version, e.channels, e.kind, e.name, e.synchronized,
       e.start_point, e.num_points, e.curve_step, e.curve_linear, e.curve_slow, e.curve_fast,
       e.curve_smooth, e.curve_bezier, e.curve_unknown, e.name_raw
FROM map_parts p
JOIN body_envelopes e ON e.body_id = p.body_id;

-- Which layers use which envelope, and how.
CREATE VIEW envelope_users AS
SELECT p.map_id, u.envelope_index, u.layer_index, u.role, u.count
FROM map_parts p
JOIN body_envelope_users u ON u.body_id = p.body_id;

-- The map's sounds.
CREATE VIEW sounds AS
SELECT p.map_id, s.sound_index, s.name, s.external, s.data_stored_size, s.data_size, s.name_raw
FROM map_parts p
JOIN body_sounds s ON s.body_id = p.body_id;

-- Which layers use which sound.
CREATE VIEW sound_users AS
SELECT p.map_id, u.sound_index, u.layer_index, u.sources
FROM map_parts p
JOIN body_sound_users u ON u.body_id = p.body_id;

-- DDNet's per-map features present in the map.
CREATE VIEW ddnet_features AS
SELECT p.map_id, f.feature
FROM map_parts p
JOIN feature_set_members f ON f.feature_set_id = p.feature_set_id;

-- A small picture of each map content.
CREATE VIEW thumbnails AS
SELECT p.map_id, t.width, t.height, t.png, t.layers_key
FROM map_parts p
JOIN thumbnail_images t ON t.thumbnail_id = p.thumbnail_id;
