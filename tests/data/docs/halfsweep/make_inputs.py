# Writes the sweep's inputs into the current folder (run from tests/data/docs/halfsweep).
# Writes the inputs the GPU and the simulator both read (little-endian raw files, 1024 elements):
# in_f32.bin (f32 bits), a16/b16/c16.bin (16-bit patterns), a32/b32/c32.bin (packed pairs).
import struct, random
random.seed(7)
N = 1024
fl = []
def f32(b): fl.append(b & 0xffffffff)
for b in [0,0x80000000,0x7f800000,0xff800000,0x7fc00000,0xffc00001,0x7f800001,0x00000001,0x80000001,0x007fffff,0x00800000,
          0x3f800000,0xbf800000,0x477fe000,0x477ff000,0x477fefff,0x477ff001,0x47800000,0x7f7fffff,0xff7fffff,0x7f7f8000,0x7f7f7fff,
          0x33000000,0x33000001,0x32ffffff,0x33800000,0x387fc000,0x38800000,0x38000000,0xb3000001]:
    f32(b)
for base in [0x3f800000,0x3f810000,0xbf800000,0xbf810000,0x00010000,0x7f7f0000,0x40490000]:   # bf16 halfway cases
    for low in [0x7fff,0x8000,0x8001,0x0001,0xffff]: f32(base|low)
for base in [0x3f800000,0x3f802000,0xbf800000,0xbf802000,0x46fffe000 & 0xffffffff]:          # f16 halfway cases
    for low in [0x0fff,0x1000,0x1001,0x0001,0x1fff]: f32(base|low)
for k in range(1,40):                                                                         # f16 subnormal halfway points
    f32(struct.unpack('<I',struct.pack('<f',k*2.0**-25))[0]); f32(struct.unpack('<I',struct.pack('<f',-k*2.0**-25))[0])
for v in [65504.0,65519.0,65520.0,65536.0,-65520.0,1e10,-1e10,3.1415926,2.5,3.5,-2.5,0.5,1.5,-0.5,4097.0,1e-8,-1e-8,2147483648.0,-2147483649.0,4294967296.0]:
    f32(struct.unpack('<I',struct.pack('<f',v))[0])
while len(fl) < N//2: f32(random.getrandbits(32))
while len(fl) < N:
    e = random.randint(90,160); f32((random.getrandbits(1)<<31)|(e<<23)|random.getrandbits(23))
open('in_f32.bin','wb').write(struct.pack(f'<{N}I',*fl))
edges16 = [0,0x8000,0x7c00,0xfc00,0x7e00,0x7fff,0xffff,0x7c01,0x0001,0x8001,0x03ff,0x0400,0x3c00,0xbc00,0x7bff,0xfbff,0x7f80,0xff80,0x7fc0,0x7f81,0x0080,0x007f,0x3f80,0xbf80,0x7f7f,0xff7f,0x3c01,0x3f81]
def gen16(seed):
    random.seed(seed); a = []
    for x in edges16:
        for y in edges16[:8]: a.append(x)
    while len(a) < N: a.append(random.getrandbits(16))
    return a
A = gen16(1)
B = []
for x in edges16:
    for y in edges16[:8]: B.append(y)
random.seed(2)
while len(B) < N: B.append(random.getrandbits(16) if random.random() < 0.5 else (A[len(B)] ^ random.getrandbits(4)))
C = gen16(3)[::-1]
for nm, arr in [('a16',A),('b16',B),('c16',C)]: open(nm+'.bin','wb').write(struct.pack(f'<{N}H',*arr))
A32 = [A[i]|(B[(i*7)%N]<<16) for i in range(N)]
B32 = [B[i]|(A[(i*5)%N]<<16) for i in range(N)]
C32 = [C[i]|(C[(i*3)%N]<<16) for i in range(N)]
for nm, arr in [('a32',A32),('b32',B32),('c32',C32)]: open(nm+'.bin','wb').write(struct.pack(f'<{N}I',*arr))
