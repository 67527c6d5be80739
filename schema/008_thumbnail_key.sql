-- mapindex index schema, version 8: the key of what a thumbnail was drawn from.
--
-- Run by the migration runner (src/index/migrations.cpp), which sets
-- PRAGMA user_version. README.md ("Pictures", "Schema reference") documents
-- the column.
--
-- layers_key: SHA-256 (32 bytes) over the thumbnail's render version, the
-- map's size (its game layer's) and the layer_data keys (SHA-256 of the
-- stored data, kind, tilemap version, width, height, data size) of the
-- physics layers it was drawn from. A later `mapindex index` run that meets a
-- map whose drawn layers give the same key takes this thumbnail instead of
-- inflating those layers to draw it again. NULL for thumbnails written before
-- version 8, SpriteTile levels and maps with a layer without a key (datafile
-- version 3).
ALTER TABLE thumbnails ADD COLUMN layers_key BLOB;

CREATE INDEX thumbnails_by_layers_key ON thumbnails (layers_key) WHERE layers_key IS NOT NULL;
