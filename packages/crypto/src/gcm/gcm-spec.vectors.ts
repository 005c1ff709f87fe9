/**
 * Test cases from the GCM specification (McGrew and Viega, "The Galois/Counter Mode of Operation",
 * appendix B), as hex. `h`, `j0` (the spec's Y0) and `ghash` are its intermediate values; they
 * depend only on H and the data, so the field arithmetic is checked against all of them. Used by
 * the tests; the self-test keeps its own copy of case 16.
 */
export interface GcmSpecCase {
  readonly n: number;
  readonly keyHex: string;
  readonly ivHex: string;
  readonly aadHex: string;
  readonly plainHex: string;
  readonly hHex: string;
  readonly j0Hex: string;
  readonly ghashHex: string;
  readonly cipherHex: string;
  readonly tagHex: string;
}

const KEY_128 = 'feffe9928665731c6d6a8f9467308308';
const KEY_256 = KEY_128 + KEY_128;
const AAD = 'feedfacedeadbeeffeedfacedeadbeefabaddad2';
const PLAIN_64 =
  'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72' +
  '1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255';
const PLAIN_60 = PLAIN_64.slice(0, 120);
const IV_96 = 'cafebabefacedbaddecaf888';
const IV_64 = 'cafebabefacedbad';
const IV_480 =
  '9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728' +
  'c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b';

export const GCM_SPEC_CASES: readonly GcmSpecCase[] = [
  {
    n: 2,
    keyHex: '00000000000000000000000000000000',
    ivHex: '000000000000000000000000',
    aadHex: '',
    plainHex: '00000000000000000000000000000000',
    hHex: '66e94bd4ef8a2c3b884cfa59ca342b2e',
    j0Hex: '00000000000000000000000000000001',
    ghashHex: 'f38cbb1ad69223dcc3457ae5b6b0f885',
    cipherHex: '0388dace60b6a392f328c2b971b2fe78',
    tagHex: 'ab6e47d42cec13bdf53a67b21257bddf',
  },
  {
    n: 6,
    keyHex: KEY_128,
    ivHex: IV_480,
    aadHex: AAD,
    plainHex: PLAIN_60,
    hHex: 'b83b533708bf535d0aa6e52980d53b78',
    j0Hex: '3bab75780a31c059f83d2a44752f9864',
    ghashHex: '1c5afe9760d3932f3c9a878aac3dc3de',
    cipherHex:
      '8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7' +
      '01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5',
    tagHex: '619cc5aefffe0bfa462af43c1699d050',
  },
  {
    n: 12,
    keyHex: KEY_128 + KEY_128.slice(0, 16),
    ivHex: IV_480,
    aadHex: AAD,
    plainHex: PLAIN_60,
    hHex: '466923ec9ae682214f2c082badb39249',
    j0Hex: '4505cdc367a054c5002820e96aebef27',
    ghashHex: '82567fb0b4cc371801eadec005968e94',
    cipherHex:
      'd27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45' +
      '81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b',
    tagHex: 'dcf566ff291c25bbb8568fc3d376a6d9',
  },
  {
    n: 13,
    keyHex: '00'.repeat(32),
    ivHex: '00'.repeat(12),
    aadHex: '',
    plainHex: '',
    hHex: 'dc95c078a2408989ad48a21492842087',
    j0Hex: '00000000000000000000000000000001',
    ghashHex: '00000000000000000000000000000000',
    cipherHex: '',
    tagHex: '530f8afbc74536b9a963b4f1c4cb738b',
  },
  {
    n: 14,
    keyHex: '00'.repeat(32),
    ivHex: '00'.repeat(12),
    aadHex: '',
    plainHex: '00'.repeat(16),
    hHex: 'dc95c078a2408989ad48a21492842087',
    j0Hex: '00000000000000000000000000000001',
    ghashHex: '83de425c5edc5d498f382c441041ca92',
    cipherHex: 'cea7403d4d606b6e074ec5d3baf39d18',
    tagHex: 'd0d1c8a799996bf0265b98b5d48ab919',
  },
  {
    n: 15,
    keyHex: KEY_256,
    ivHex: IV_96,
    aadHex: '',
    plainHex: PLAIN_64,
    hHex: 'acbef20579b4b8ebce889bac8732dad7',
    j0Hex: 'cafebabefacedbaddecaf88800000001',
    ghashHex: '4db870d37cb75fcb46097c36230d1612',
    cipherHex:
      '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa' +
      '8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad',
    tagHex: 'b094dac5d93471bdec1a502270e3cc6c',
  },
  {
    n: 16,
    keyHex: KEY_256,
    ivHex: IV_96,
    aadHex: AAD,
    plainHex: PLAIN_60,
    hHex: 'acbef20579b4b8ebce889bac8732dad7',
    j0Hex: 'cafebabefacedbaddecaf88800000001',
    ghashHex: '8bd0c4d8aacd391e67cca447e8c38f65',
    cipherHex:
      '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa' +
      '8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662',
    tagHex: '76fc6ece0f4e1768cddf8853bb2d551b',
  },
  {
    n: 17,
    keyHex: KEY_256,
    ivHex: IV_64,
    aadHex: AAD,
    plainHex: PLAIN_60,
    hHex: 'acbef20579b4b8ebce889bac8732dad7',
    j0Hex: '0095df49dd90abe3e4d252475748f5d4',
    ghashHex: '75a34288b8c68f811c52b2e9a2f97f63',
    cipherHex:
      'c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0' +
      'feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f',
    tagHex: '3a337dbf46a792c45e454913fe2ea8f2',
  },
  {
    n: 18,
    keyHex: KEY_256,
    ivHex: IV_480,
    aadHex: AAD,
    plainHex: PLAIN_60,
    hHex: 'acbef20579b4b8ebce889bac8732dad7',
    j0Hex: '0cd953e2140a5976079f8e2406bc8eb4',
    ghashHex: 'd5ffcf6fc5ac4d69722187421a7f170b',
    cipherHex:
      '5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4' +
      '0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f',
    tagHex: 'a44a8266ee1c8eb0c8b5d4cf5ae9f19a',
  },
];
