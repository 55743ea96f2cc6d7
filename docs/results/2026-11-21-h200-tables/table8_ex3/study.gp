# bsde study: bs-call, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 3.720636e-04 1.073852e-03 7.669702e+00 1.982482e+00
64 1.561301e-04 5.603286e-04 1.057179e+01 2.427084e+00
128 6.966960e-05 2.865330e-04 1.260335e+01 2.447490e+00
256 3.309368e-05 1.446350e-04 1.759776e+01 2.970845e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 2.869093e-06 9.850384e-06 3.814894e+01 4.200649e+00
64 7.017131e-07 2.727994e-06 9.349646e+01 4.775751e+01
128 1.209703e-07 6.636728e-07 1.277838e+02 4.948023e+01
256 2.098815e-08 1.622417e-07 1.848810e+02 6.258705e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 5.691507e-08 3.543839e-07 2.409707e+02 7.114932e+01
64 5.647597e-09 4.591527e-08 3.606682e+02 9.890971e+01
128 6.661232e-10 5.653643e-09 5.257777e+02 1.278903e+02
256 7.859224e-11 7.285355e-10 6.978940e+02 1.730089e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 4.643447e-08 3.167230e-07 2.957707e+02 8.400373e+01
64 4.792192e-09 4.068172e-08 4.145830e+02 1.115387e+02
128 5.567786e-10 5.033900e-09 5.990092e+02 1.348772e+02
256 6.079315e-11 6.493099e-10 ? 1.780090e+02
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 4.458109e-08 3.246481e-07 2.821789e+02 8.652645e+01
64 5.331144e-09 4.172902e-08 4.258635e+02 1.204461e+02
128 5.643601e-10 5.179876e-09 6.324742e+02 1.435984e+02
256 2.947563e-09 6.704557e-10 ? 1.886776e+02
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 4.569225e-08 3.207936e-07 3.051880e+02 9.211947e+01
64 5.400659e-09 4.118250e-08 4.604881e+02 1.159817e+02
128 5.258052e-10 5.115190e-09 6.797649e+02 1.482388e+02
256 6.815259e-11 6.637997e-10 ? 1.931466e+02
EOD
set logscale x 2
set xtics (32, 64, 128, 256)
set xrange [26.6667:307.2]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "bs-call: error of y_0 against N, K = K_y = K_z"
set ylabel "|y_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "z_error.png"
set title "bs-call: error of z_0 against N, K = K_y = K_z"
set ylabel "|z_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_serial.png"
set title "bs-call: speedup of cuda over serial"
set ylabel "speedup (serial time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_omp.png"
set title "bs-call: speedup of cuda over omp"
set ylabel "speedup (omp time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"
unset output
