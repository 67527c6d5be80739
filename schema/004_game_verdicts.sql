-- mapindex index schema, version 4: whether each Teeworlds map loads in
-- Teeworlds 0.6 and 0.7, besides DDNet's verdict (maps.status).
--
-- Run by the migration runner (src/index/migrations.cpp), which sets
-- PRAGMA user_version = 4. README.md ("Schema reference", "Games") documents
-- every column; docs/formats/map-loaders.md has the rules per problem code.
--
-- NULL for SpriteTile levels, and for maps measured before version 4 until
-- the next run re-measures them (the extractor version changed with it).
ALTER TABLE maps ADD COLUMN loads_teeworlds_06 INTEGER CHECK (loads_teeworlds_06 IN (0, 1));
ALTER TABLE maps ADD COLUMN loads_teeworlds_07 INTEGER CHECK (loads_teeworlds_07 IN (0, 1));
-- maps.teeworlds_status: the status for `--game teeworlds`: rejected when
-- neither 0.6 nor 0.7 loads the map, else ok when DDNet finds nothing, else
-- warnings. SpriteTile levels: their status.
ALTER TABLE maps ADD COLUMN teeworlds_status TEXT
  CHECK (teeworlds_status IN ('ok', 'warnings', 'rejected'));
UPDATE maps SET teeworlds_status = status WHERE format = 'spritetile';
