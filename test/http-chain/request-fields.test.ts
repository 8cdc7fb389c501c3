import { bit, codePoints, httpUrl, positiveInt, text } from '../../shared/validation/fields';

describe('field rules', () => {
  test('bit accepts 0/1 and the strings "0"/"1" only', () => {
    expect(bit().parse('1')).toBe(1);
    expect(bit().parse(' 0 ')).toBe(0);
    expect(bit().parse(1)).toBe(1);
    for (const bad of ['1x', '01', 'true', true, 2, -1, '', null]) expect(bit().safeParse(bad).success).toBe(false);
  });

  test('positiveInt parses plain decimal strings strictly', () => {
    expect(positiveInt().parse('42')).toBe(42);
    for (const bad of ['042', '4.2', '1e3', '0', '-3', 'x', '']) expect(positiveInt().safeParse(bad).success).toBe(false);
  });

  test('text trims and counts code points', () => {
    expect(codePoints('😀😀')).toBe(2);
    expect(text(3).parse('  abc  ')).toBe('abc');
    expect(text(2).safeParse('😀😀😀').success).toBe(false);
    expect(text(5, { min: 1 }).safeParse('   ').success).toBe(false);
  });

  test('URLs must be absolute http(s)', () => {
    expect(httpUrl().parse(' https://a.example/x ')).toBe('https://a.example/x');
    for (const bad of ['', 'ftp://a.example', '/relative', 'https://', 'mailto:a@b.c']) expect(httpUrl().safeParse(bad).success).toBe(false);
  });
});
