-- Each named sequence the kit gives numbers of (role ids, say): its last number given.
CREATE TABLE kit_sequences (
  name text COLLATE "C" PRIMARY KEY,
  value bigint NOT NULL
);
