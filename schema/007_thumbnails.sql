-- mapindex index schema, version 7: a thumbnail per map content.
--
-- Run by the migration runner (src/index/migrations.cpp), which sets
-- PRAGMA user_version. README.md ("Pictures", "Schema reference") documents
-- the table, the view and the palette.
--
-- One row per map content (maps row), written while the map is measured
-- (`mapindex index`, unless --no-thumbnails): a palette PNG of its physics
-- layers (a SpriteTile level: all its layers), longest side at most 256
-- pixels, each pixel the most important tile class among the tiles it
-- covers. Maps without anything to draw (no game layer) have no row; maps
-- measured before version 7 get theirs when the next run measures them again
-- (the extractor version changed with it).
CREATE TABLE thumbnails (
  map_id INTEGER PRIMARY KEY REFERENCES maps (map_id),
  width  INTEGER NOT NULL CHECK (width BETWEEN 1 AND 256),
  height INTEGER NOT NULL CHECK (height BETWEEN 1 AND 256),
  png    BLOB    NOT NULL
);

-- A map's thumbnail by its content's SHA-256 or its name (map_names: the
-- newest file name of that content). Read by `mapindex render --from-index`
-- and the HTML audit.
CREATE VIEW map_thumbnails AS
SELECT m.map_id,
       m.sha256,
       n.name,
       t.png
FROM thumbnails t
JOIN maps m ON m.map_id = t.map_id
LEFT JOIN map_names n ON n.map_id = m.map_id;
