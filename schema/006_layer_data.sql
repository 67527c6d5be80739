-- mapindex index schema: each distinct tile layer's data stored once.
--
-- Run by the migration runner (src/index/migrations.cpp) inside one
-- transaction with foreign keys off, which then checks PRAGMA foreign_key_check
-- and sets PRAGMA user_version. README.md ("Schema reference", "How it works")
-- documents every table and column.
--
-- What mapindex derives from a tile layer's data (tile counts, entities,
-- numbers, non-empty and flip counts, the data's findings) depends only on the
-- data item's stored bytes, the layer's kind, width, height, tilemap version
-- and the item's declared size. layer_data holds one row per distinct such
-- input (keyed by the SHA-256 of the stored bytes and those fields, and the
-- extractor version that measured it); layers.layer_data_id refers to it, and
-- tile_counts, entities and layer_numbers become views over the per-layer-data
-- tables with their old names and columns, so every query gives the same
-- answers.
--
-- Layers written before this version have no data hash: each gets a
-- layer_data row of its own with sha256 NULL (a key that never matches), and
-- its rows move there. So do SpriteTile layers and tile layers without a key
-- (datafile version 3, unreadable data).

CREATE TABLE layer_data (
  layer_data_id     INTEGER PRIMARY KEY,
  sha256            TEXT CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
  kind              TEXT    NOT NULL,
  width             INTEGER NOT NULL,
  height            INTEGER NOT NULL,
  version           INTEGER NOT NULL,
  data_size         INTEGER,
  extractor_version INTEGER,
  non_empty         INTEGER NOT NULL,
  flip_x            INTEGER NOT NULL,
  flip_y            INTEGER NOT NULL,
  rotate            INTEGER NOT NULL,
  -- Rows with a NULL sha256 never conflict (NULLs are distinct in UNIQUE).
  UNIQUE (sha256, kind, width, height, version, data_size, extractor_version)
);

CREATE TABLE layer_data_tiles (
  layer_data_id INTEGER NOT NULL REFERENCES layer_data (layer_data_id),
  layer_kind    TEXT    NOT NULL,
  tile          INTEGER NOT NULL,
  count         INTEGER NOT NULL,
  PRIMARY KEY (layer_data_id, tile)
) WITHOUT ROWID;

CREATE TABLE layer_data_entities (
  layer_data_id INTEGER NOT NULL REFERENCES layer_data (layer_data_id),
  layer_kind    TEXT    NOT NULL,
  entity        TEXT    NOT NULL,
  count         INTEGER NOT NULL,
  PRIMARY KEY (layer_data_id, entity)
) WITHOUT ROWID;

CREATE TABLE layer_data_numbers (
  layer_data_id INTEGER NOT NULL REFERENCES layer_data (layer_data_id),
  number        INTEGER NOT NULL,
  PRIMARY KEY (layer_data_id, number)
) WITHOUT ROWID;

-- The data's findings, in the order measuring reports them: what a map that
-- holds the data reports as problems located at the layer.
CREATE TABLE layer_data_findings (
  layer_data_id INTEGER NOT NULL REFERENCES layer_data (layer_data_id),
  position      INTEGER NOT NULL,
  code          TEXT    NOT NULL,
  message       TEXT    NOT NULL,
  PRIMARY KEY (layer_data_id, position)
) WITHOUT ROWID;

ALTER TABLE layers ADD COLUMN layer_data_id INTEGER REFERENCES layer_data (layer_data_id);

-- Old layers with any tile count, entity or number: one layer_data row each,
-- numbered in (map_id, layer_index) order.
CREATE TEMP TABLE old_layer_data AS
SELECT row_number() OVER (ORDER BY l.map_id, l.layer_index) AS layer_data_id,
       l.map_id, l.layer_index, l.kind, l.width, l.height, l.version,
       l.non_empty, l.flip_x, l.flip_y, l.rotate
FROM layers l
WHERE EXISTS (SELECT 1 FROM tile_counts t WHERE t.map_id = l.map_id AND t.layer_index = l.layer_index)
   OR EXISTS (SELECT 1 FROM entities e WHERE e.map_id = l.map_id AND e.layer_index = l.layer_index)
   OR EXISTS (SELECT 1 FROM layer_numbers n WHERE n.map_id = l.map_id AND n.layer_index = l.layer_index);

INSERT INTO layer_data (layer_data_id, sha256, kind, width, height, version, data_size,
                        extractor_version, non_empty, flip_x, flip_y, rotate)
SELECT layer_data_id, NULL, kind, width, height, version, NULL, NULL,
       non_empty, flip_x, flip_y, rotate
FROM old_layer_data;

UPDATE layers SET layer_data_id = o.layer_data_id
FROM old_layer_data o
WHERE o.map_id = layers.map_id AND o.layer_index = layers.layer_index;

INSERT INTO layer_data_tiles (layer_data_id, layer_kind, tile, count)
SELECT o.layer_data_id, t.layer_kind, t.tile, t.count
FROM tile_counts t JOIN old_layer_data o USING (map_id, layer_index);
INSERT INTO layer_data_entities (layer_data_id, layer_kind, entity, count)
SELECT o.layer_data_id, e.layer_kind, e.entity, e.count
FROM entities e JOIN old_layer_data o USING (map_id, layer_index);
INSERT INTO layer_data_numbers (layer_data_id, number)
SELECT o.layer_data_id, n.number
FROM layer_numbers n JOIN old_layer_data o USING (map_id, layer_index);

DROP TABLE old_layer_data;

-- The old tables become views with their names and columns. -----------------

DROP VIEW map_tiles;
DROP TABLE tile_counts;
DROP TABLE entities;
DROP TABLE layer_numbers;

CREATE INDEX layers_by_layer_data ON layers (layer_data_id) WHERE layer_data_id IS NOT NULL;
-- Physics layers only, as before (the index keeps its old name: a query that
-- says layer_kind = 'game' literally uses it through the tile_counts view).
CREATE INDEX tile_counts_by_tile ON layer_data_tiles (layer_kind, tile, count)
  WHERE layer_kind = 'game' OR layer_kind = 'front' OR layer_kind = 'tele'
     OR layer_kind = 'speedup' OR layer_kind = 'switch' OR layer_kind = 'tune';
CREATE INDEX entities_by_entity ON layer_data_entities (entity);

-- How often each tile occurs in each layer of each map (non-empty tiles only).
CREATE VIEW tile_counts AS
SELECT l.map_id, l.layer_index, t.layer_kind, t.tile, t.count
FROM layer_data_tiles t
JOIN layers l ON l.layer_data_id = t.layer_data_id;

-- Entities per layer of each map.
CREATE VIEW entities AS
SELECT l.map_id, l.layer_index, e.layer_kind, e.entity, e.count
FROM layer_data_entities e
JOIN layers l ON l.layer_data_id = e.layer_data_id;

-- Numbers in use per layer of each map.
CREATE VIEW layer_numbers AS
SELECT l.map_id, l.layer_index, n.number
FROM layer_data_numbers n
JOIN layers l ON l.layer_data_id = n.layer_data_id;

-- Tiles of the physics layers per map, summed over the layers of each kind,
-- with their names (as in version 1).
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
