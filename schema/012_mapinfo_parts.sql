-- Schema 12: ddnet_mapinfo and ddnet_mapinfo_history find a map's DDNet
-- feature set once per row. Each of their 41 feature columns read the view
-- ddnet_features, which since schema 11 joins map_parts to feature_set_members,
-- so every column looked the map's parts up again; now the view joins
-- map_parts once and each column is one lookup in feature_set_members, as it
-- was one lookup in the ddnet_features table before schema 11. Same rows,
-- columns and column order.

-- Every Teeworlds map content ever indexed (as schema 10 defined it).
DROP VIEW ddnet_mapinfo_history;
CREATE VIEW ddnet_mapinfo_history AS
SELECT n.name AS Map,
       m.game_width AS Width,
       m.game_height AS Height,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'DEATH') AS DEATH,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'THROUGH') AS THROUGH,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'JUMP') AS JUMP,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'DFREEZE') AS DFREEZE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'EHOOK_START') AS EHOOK_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'HIT_END') AS HIT_END,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'SOLO_START') AS SOLO_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELE_GUN') AS TELE_GUN,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELE_GRENADE') AS TELE_GRENADE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELE_LASER') AS TELE_LASER,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'NPC_START') AS NPC_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'SUPER_START') AS SUPER_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'JETPACK_START') AS JETPACK_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'WALLJUMP') AS WALLJUMP,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'NPH_START') AS NPH_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'WEAPON_SHOTGUN') AS WEAPON_SHOTGUN,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'WEAPON_GRENADE') AS WEAPON_GRENADE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'POWERUP_NINJA') AS POWERUP_NINJA,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'WEAPON_RIFLE') AS WEAPON_RIFLE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'LASER_STOP') AS LASER_STOP,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'CRAZY_SHOTGUN') AS CRAZY_SHOTGUN,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'DRAGGER') AS DRAGGER,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'DOOR') AS DOOR,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'SWITCH_TIMED') AS SWITCH_TIMED,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'SWITCH') AS SWITCH,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'STOP') AS STOP,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'THROUGH_ALL') AS THROUGH_ALL,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TUNE') AS TUNE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'OLDLASER') AS OLDLASER,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELEINEVIL') AS TELEINEVIL,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELEIN') AS TELEIN,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELECHECK') AS TELECHECK,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELEINWEAPON') AS TELEINWEAPON,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELEINHOOK') AS TELEINHOOK,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'CHECKPOINT_FIRST') AS CHECKPOINT_FIRST,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'BONUS') AS BONUS,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'BOOST') AS BOOST,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'PLASMAF') AS PLASMAF,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'PLASMAE') AS PLASMAE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'PLASMAU') AS PLASMAU,
       m.map_id,
       m.sha256,
       m.status
FROM maps m
JOIN map_names n ON n.map_id = m.map_id
LEFT JOIN map_parts p ON p.map_id = m.map_id
WHERE m.format = 'teeworlds';

-- The archive now: one row per Teeworlds map entry of current_maps (as schema
-- 10 defined it).
DROP VIEW ddnet_mapinfo;
CREATE VIEW ddnet_mapinfo AS
SELECT c.name AS Map,
       c.game_width AS Width,
       c.game_height AS Height,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'DEATH') AS DEATH,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'THROUGH') AS THROUGH,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'JUMP') AS JUMP,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'DFREEZE') AS DFREEZE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'EHOOK_START') AS EHOOK_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'HIT_END') AS HIT_END,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'SOLO_START') AS SOLO_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELE_GUN') AS TELE_GUN,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELE_GRENADE') AS TELE_GRENADE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELE_LASER') AS TELE_LASER,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'NPC_START') AS NPC_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'SUPER_START') AS SUPER_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'JETPACK_START') AS JETPACK_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'WALLJUMP') AS WALLJUMP,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'NPH_START') AS NPH_START,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'WEAPON_SHOTGUN') AS WEAPON_SHOTGUN,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'WEAPON_GRENADE') AS WEAPON_GRENADE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'POWERUP_NINJA') AS POWERUP_NINJA,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'WEAPON_RIFLE') AS WEAPON_RIFLE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'LASER_STOP') AS LASER_STOP,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'CRAZY_SHOTGUN') AS CRAZY_SHOTGUN,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'DRAGGER') AS DRAGGER,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'DOOR') AS DOOR,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'SWITCH_TIMED') AS SWITCH_TIMED,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'SWITCH') AS SWITCH,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'STOP') AS STOP,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'THROUGH_ALL') AS THROUGH_ALL,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TUNE') AS TUNE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'OLDLASER') AS OLDLASER,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELEINEVIL') AS TELEINEVIL,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELEIN') AS TELEIN,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELECHECK') AS TELECHECK,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELEINWEAPON') AS TELEINWEAPON,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'TELEINHOOK') AS TELEINHOOK,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'CHECKPOINT_FIRST') AS CHECKPOINT_FIRST,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'BONUS') AS BONUS,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'BOOST') AS BOOST,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'PLASMAF') AS PLASMAF,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'PLASMAE') AS PLASMAE,
       EXISTS (SELECT 1 FROM feature_set_members f WHERE f.feature_set_id = p.feature_set_id AND f.feature = 'PLASMAU') AS PLASMAU,
       c.map_id,
       c.sha256,
       c.status,
       c.source,
       c.entry_path
FROM current_maps c
LEFT JOIN map_parts p ON p.map_id = c.map_id
WHERE c.format = 'teeworlds';
