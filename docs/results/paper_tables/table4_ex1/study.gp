# bsde study: ex1, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 9.212149e-07 2.785989e-05 1.025363e+01 6.323690e+00
256 3.885047e-07 1.402347e-05 1.639092e+01 7.131296e+00
512 1.726010e-07 7.042265e-06 1.948919e+01 8.824487e+00
1024 8.223278e-08 3.526118e-06 2.960939e+01 8.860777e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 2.441776e-09 1.569832e-06 6.032902e+01 1.033908e+01
256 8.163066e-10 3.941889e-07 1.107167e+02 1.306451e+01
512 1.501656e-10 9.883465e-08 2.251214e+02 2.198925e+01
1024 3.731104e-11 2.471209e-08 3.391583e+02 3.690118e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.839034e-11 2.761969e-08 2.409892e+02 3.176082e+01
256 1.885270e-12 3.502270e-09 5.953220e+02 5.576426e+01
512 1.961209e-13 4.410478e-10 7.458378e+02 7.846129e+01
1024 2.886580e-15 5.533513e-11 ? 1.001904e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.133071e-11 1.691877e-08 2.378570e+02 3.284874e+01
256 1.268818e-12 2.132693e-09 4.814054e+02 6.220517e+01
512 2.566281e-13 2.676406e-10 ? 8.825096e+01
1024 4.107825e-15 3.348211e-11 ? 9.477734e+01
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 2.822464e-12 1.890903e-08 3.066278e+02 3.429318e+01
256 1.380784e-12 2.395892e-09 7.589879e+02 6.088304e+01
512 4.396483e-14 3.016664e-10 ? 8.792647e+01
1024 1.776357e-15 3.780187e-11 ? 9.441506e+01
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 8.939960e-12 1.831494e-08 3.047299e+02 3.352536e+01
256 1.035116e-12 2.319205e-09 5.969309e+02 6.814070e+01
512 1.145750e-13 2.918251e-10 ? 8.108852e+01
1024 3.441691e-15 3.656159e-11 ? 9.045715e+01
EOD
set logscale x 2
set xtics (128, 256, 512, 1024)
set xrange [106.667:1228.8]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "ex1: error of y_0 against N, K = K_y = K_z"
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
set title "ex1: error of z_0 against N, K = K_y = K_z"
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
set title "ex1: speedup of cuda over serial"
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
set title "ex1: speedup of cuda over omp"
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
